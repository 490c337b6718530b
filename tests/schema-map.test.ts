import assert from 'node:assert/strict'
import { spawn } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { before, describe, test } from 'node:test'
import { z } from 'zod'
import { useFreshEngine } from './helpers/engine'
import { call } from './helpers/routes'
import { prepareSnapshotEngine } from './helpers/snapshot-engine'
import { SERVER_NODE_ARGS } from '../scripts/server-node'
import * as q from '../lib/clickhouse/query'
import { parseConfig } from '../lib/config'
import { DEMO_RUNS } from '../lib/demo/scenarios'
import { parseSchemaMap } from '../lib/tables/schema-map'
import { source, tableNames } from '../lib/loom/tables'
import { wmGet } from '../lib/loom/working-memory'
import * as block from '../app/api/runs/[org]/[namespace]/[agent]/[runId]/blocks/[blockKey]/route'
import { GET as runsRoute } from '../app/api/runs/route'
import { GET as schemaRoute } from '../app/api/schema/route'

/**
 * A Loom whose tables and columns carry other names, described by LOOM_RUNS_SCHEMA_MAP. Renamed:
 * working memory's table and three columns (one in the sorting key, the version column), the runs
 * table (into another database) with its run_id key column, the turns table and one memory column.
 */
const MAP = {
  working_memory: {
    table: 'agent_memory',
    columns: { content: 'body', block_key: 'slot', updated_at: 'written_at', version: 'rev' },
  },
  runs: { table: 'loom_meta.agent_runs', columns: { status: 'run_status', run_id: 'run_key' } },
  conversation_turns: { table: 'turns_v2', columns: { content: 'text' } },
  memory: { columns: { value: 'memory_value' } },
  search_trace_log: { table: 'search_log' },
}
useFreshEngine('schema-map', { LOOM_RUNS_SCHEMA_MAP: JSON.stringify(MAP) })

const SEED = 42
const NOW = new Date('2026-11-25T12:00:00.000Z')

/** The same demo in a child process with the contract's names: its route answers are the reference. */
function referenceSnapshot(): Promise<Record<string, unknown>> {
  const out = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'loom-runs-snapshot-')), 'snapshot.json')
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [
        ...SERVER_NODE_ARGS,
        path.join(__dirname, 'helpers', 'route-snapshot-cli.ts'),
        String(SEED),
        NOW.toISOString(),
        out,
      ],
      {
        cwd: path.join(__dirname, '..'),
        stdio: ['ignore', 'ignore', 'pipe'],
        env: { ...process.env, LOOM_RUNS_SCHEMA_MAP: '' },
      },
    )
    let err = ''
    child.stderr.on('data', (d) => (err += d))
    child.on('error', reject)
    child.on('exit', (code) => {
      if (code === 0) resolve(JSON.parse(fs.readFileSync(out, 'utf8')))
      else reject(new Error(`reference engine exited with ${code}: ${err}`))
    })
  })
}

let reference: Promise<Record<string, unknown>>
let mapped: Record<string, unknown>

before(async () => {
  reference = referenceSnapshot()
  reference.catch(() => undefined)
  mapped = await prepareSnapshotEngine(SEED, NOW)
})

async function tablesIn(database: string) {
  const rows = await q.queryRows(
    'SELECT name FROM system.tables WHERE database = {db:String} ORDER BY name',
    { db: database },
    z.object({ name: z.string() }),
  )
  return rows.map((r) => r.name)
}

describe('a Loom with renamed tables and columns (LOOM_RUNS_SCHEMA_MAP)', () => {
  test('the physical tables carry the mapped names, and no table has the contract name', async () => {
    const loom = await tablesIn('loom')
    assert.ok(loom.includes('agent_memory') && loom.includes('turns_v2') && loom.includes('memory'))
    assert.ok(!loom.includes('working_memory') && !loom.includes('runs') && !loom.includes('conversation_turns'))
    assert.deepEqual(await tablesIn('loom_meta'), ['agent_runs'])
    assert.deepEqual(await tablesIn('loom_telemetry'), ['search_log'])
    const cols = await q.queryRows(
      "SELECT name FROM system.columns WHERE database = 'loom' AND table = 'agent_memory' ORDER BY position",
      {},
      z.object({ name: z.string() }),
    )
    const names = cols.map((c) => c.name)
    for (const c of ['body', 'slot', 'written_at', 'rev']) assert.ok(names.includes(c), `agent_memory has ${c}`)
    for (const c of ['content', 'block_key', 'updated_at', 'version'])
      assert.ok(!names.includes(c), `agent_memory has no ${c}`)
    // Every version went through the renamed table: the history capture (a view over it) has them all.
    const [{ n, blocks }] = await q.queryRows(
      'SELECT count() AS n, (SELECT count() FROM loom.agent_memory FINAL) AS blocks FROM loom_runs.working_memory_history',
      {},
      z.object({ n: z.coerce.number(), blocks: z.coerce.number() }),
    )
    assert.ok(n > 500 && blocks > 20, `versions captured ${n}, blocks ${blocks}`)
  })

  test('every read route answers exactly as it does on a Loom with the contract names', async () => {
    const ref = await reference
    assert.ok(Number(ref.runCount) >= 10, `reference listed ${ref.runCount} runs`)
    assert.equal(mapped.runCount, ref.runCount)
    const keys = Object.keys(ref)
    assert.deepEqual(Object.keys(mapped), keys)
    for (const key of keys) {
      const r = ref[key] as { status: number }
      if (typeof r === 'object') assert.equal(r.status, 200, `${key} answered ${r.status} on the reference`)
      assert.deepEqual(mapped[key], ref[key], key)
    }
  })

  test('a run-scoped read of the renamed table still uses its sorting key', async () => {
    const rows = await q.queryRows(
      `EXPLAIN indexes = 1 SELECT content FROM ${source(tableNames().workingMemory, { final: true })}
       WHERE org = 'acme' AND namespace = 'prod' AND agent = 'batch-indexer' AND block_key = 'checkpoint'`,
      {},
      z.object({ explain: z.string() }),
    )
    const plan = rows.map((r) => r.explain).join('\n')
    assert.match(plan, /PrimaryKey/)
    assert.match(plan, /Keys:\s*\n\s*org\s*\n\s*namespace\s*\n\s*agent/)
  })

  test('an operator edit lands in the renamed table and columns, and every view sees it', async () => {
    const run = DEMO_RUNS.batch
    const p = { org: run.org, namespace: run.namespace, agent: run.agent, runId: run.runId }
    const before = await call(block.GET, `/x?userId=${run.userId}&sessionId=${run.sessionId}`, {
      ...p,
      blockKey: 'checkpoint',
    })
    assert.equal(before.status, 200)
    const current = before.body.block.version as string
    const res = await call(
      block.PUT,
      `/x?userId=${run.userId}&sessionId=${run.sessionId}`,
      { ...p, blockKey: 'checkpoint' },
      {
        method: 'PUT',
        body: { content: 'edited under a mapping', expectedVersion: current, reason: 'mapping test', force: true },
      },
    )
    assert.equal(res.status, 200, JSON.stringify(res.body))
    const next = String(BigInt(current) + 1n)
    assert.equal(res.body.block.version, next)
    const [row] = await q.queryRows(
      `SELECT body, toString(rev) AS rev FROM loom.agent_memory FINAL
       WHERE org = {org:String} AND namespace = {ns:String} AND agent = {agent:String} AND run_id = {run:String} AND slot = 'checkpoint'`,
      { org: run.org, ns: run.namespace, agent: run.agent, run: run.runId },
      z.object({ body: z.string(), rev: z.string() }),
    )
    assert.deepEqual(row, { body: 'edited under a mapping', rev: next })
    // The runs list reads the checkpoint column from the run index, fed by views over the renamed table.
    const list = await call(runsRoute, `/api/runs?agent=${run.agent}`)
    const listed = list.body.runs.find((r: { runId: string }) => r.runId === run.runId)
    assert.equal(listed.checkpoint.version, next)
    // The history capture copied it too.
    const after = await call(block.GET, `/x?userId=${run.userId}&sessionId=${run.sessionId}`, {
      ...p,
      blockKey: 'checkpoint',
    })
    assert.equal(after.body.history[0].version, next)
  })

  test("an extra physical column that carries a renamed column's contract name does not shadow it", async () => {
    await q.command("ALTER TABLE loom.agent_memory ADD COLUMN content String DEFAULT 'not the checkpoint'")
    try {
      const value = await wmGet({ ...DEMO_RUNS.batch, blockKey: 'checkpoint' })
      assert.equal(value, 'edited under a mapping')
    } finally {
      await q.command('ALTER TABLE loom.agent_memory DROP COLUMN content')
    }
  })

  test('the schema doctor finds the mapped tables complete and shows the mapping in use', async () => {
    const res = await call(schemaRoute, '/api/schema')
    assert.equal(res.status, 200)
    assert.equal(res.body.mapping.source, 'LOOM_RUNS_SCHEMA_MAP')
    const wm = res.body.tables.find((t: { key: string }) => t.key === 'workingMemory')
    assert.equal(wm.fullName, 'loom.agent_memory')
    assert.equal(wm.present, true)
    assert.deepEqual(wm.columns.missing, [])
    assert.deepEqual(wm.columns.extra, [])
    assert.equal(wm.sortingKey.ok, true)
    assert.deepEqual(wm.mapping.columns, [
      { contract: 'content', physical: 'body' },
      { contract: 'block_key', physical: 'slot' },
      { contract: 'updated_at', physical: 'written_at' },
      { contract: 'version', physical: 'rev' },
    ])
    const runs = res.body.tables.find((t: { key: string }) => t.key === 'runs')
    assert.equal(runs.fullName, 'loom_meta.agent_runs')
    assert.equal(runs.present, true)
    assert.deepEqual(runs.columns.missing, [])
    assert.equal(res.body.history.capturing, true)
    assert.equal(res.body.runIndex.state, 'installed')
    assert.equal(res.body.workingMemory.table, 'loom.agent_memory')
    assert.equal(res.body.status, 'ok', JSON.stringify(res.body.tables.flatMap((t: { issues: unknown[] }) => t.issues)))
  })
})

describe('parsing the mapping', () => {
  test('bad entries are named, good ones parsed; columns mapped to themselves are dropped', async () => {
    assert.match(parseSchemaMap('{').problems[0], /not valid JSON/)
    assert.match(parseSchemaMap('{"workingmemory":{}}').problems[0], /workingmemory/)
    assert.match(
      parseSchemaMap('{"working_memory":{"columns":{"conten":"body"}}}').problems[0],
      /working_memory\.columns\.conten: working_memory has no contract column "conten"/,
    )
    assert.match(
      parseSchemaMap('{"runs":{"table":"a;DROP TABLE x"}}').problems[0],
      /runs\.table: must be table or database\.table/,
    )
    assert.match(
      parseSchemaMap('{"runs":{"columns":{"goal":"g`"}}}').problems[0],
      /runs\.columns\.goal: must be a plain ClickHouse identifier/,
    )
    assert.match(
      parseSchemaMap('{"runs":{"columns":{"goal":"x","model":"x"}}}').problems[0],
      /two columns are mapped to "x"/,
    )
    assert.deepEqual(parseSchemaMap('{"runs":{"table":"r2","columns":{"goal":"goal"}},"memory":{}}').map, {
      runs: { table: 'r2' },
    })
  })

  test('the configuration refuses a bad mapping, naming the variable', async () => {
    assert.throws(
      () => parseConfig({ LOOM_RUNS_SCHEMA_MAP: '{"runs":{"tabel":"x"}}' }),
      /LOOM_RUNS_SCHEMA_MAP: runs: Unrecognized key: "tabel"/,
    )
    assert.throws(
      () => parseConfig({ LOOM_RUNS_SCHEMA_MAP_FILE: '/nonexistent/map.json' }),
      /LOOM_RUNS_SCHEMA_MAP_FILE: cannot read \/nonexistent\/map.json \(ENOENT\)/,
    )
    assert.throws(() => parseConfig({ LOOM_RUNS_SCHEMA_MAP: '{}', LOOM_RUNS_SCHEMA_MAP_FILE: 'x.json' }), /not both/)
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'loom-runs-map-')), 'map.json')
    fs.writeFileSync(file, JSON.stringify({ runs: { table: 'agent_runs' } }))
    const config = parseConfig({ LOOM_RUNS_SCHEMA_MAP_FILE: file })
    assert.deepEqual(config.schemaMap, { runs: { table: 'agent_runs' } })
    assert.equal(config.schemaMapSource, file)
  })
})
