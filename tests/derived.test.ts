/**
 * The console is light on the agents' database: after `db:init` the only object on an agent's
 * insert path is the history capture; everything else is derived in batches that retry without
 * losing or doubling a row; an earlier install upgrades in place; `db:uninstall` removes it all.
 */
import assert from 'node:assert/strict'
import { before, describe, test } from 'node:test'
import { z } from 'zod'
import { command, queryRows } from '../lib/clickhouse/query'
import { getClient } from '../lib/clickhouse/client'
import { getConfig } from '../lib/config'
import { forCluster } from '../lib/derived/cluster'
import { derivedTables } from '../lib/derived/ddl'
import { asAgentWrites, deriveNow, deriveStatus } from '../lib/derived/derive'
import { installDerived, uninstallConsole, uninstallPlan } from '../lib/derived/install'
import { legacyObjects, runIndexNames, runRollupNames } from '../lib/derived/names'
import { runDbInit } from '../lib/setup/db-init'
import { existingTables } from '../lib/loom/install-steps'
import { runBegin, runComplete } from '../lib/loom/runs'
import { tableNames } from '../lib/loom/tables'
import { wmSet } from '../lib/loom/working-memory'
import { getHealth } from '../lib/queries/health'
import { listRuns } from '../lib/queries/runs'
import { forgetExistingTables } from '../lib/clickhouse/schema-presence'
import { useFreshEngine } from './helpers/engine'
import { call } from './helpers/routes'
import { PUT as putBlock } from '../app/api/runs/[org]/[namespace]/[agent]/[runId]/blocks/[blockKey]/route'
import { freshnessNote } from '../components/runs/derived-freshness-model'

useFreshEngine('derived')

const rows = <T extends z.ZodType>(q: string, schema: T) => queryRows(q, {}, schema)
const count = async (table: string) =>
  (await rows(`SELECT count() AS n FROM ${table}`, z.object({ n: z.coerce.number() })))[0].n

/** The materialized views and the table each reads first (the one whose inserts fire it). */
async function viewsBySource(): Promise<Map<string, string[]>> {
  const views = await rows(
    "SELECT concat(database, '.', name) AS name, create_table_query AS ddl FROM system.tables WHERE engine = 'MaterializedView'",
    z.object({ name: z.string(), ddl: z.string() }),
  )
  const out = new Map<string, string[]>()
  for (const v of views) {
    const from = /\bFROM\s+([\w.`]+)/i.exec(v.ddl.replace(/`/g, ''))?.[1] ?? ''
    out.set(from, [...(out.get(from) ?? []), v.name])
  }
  return out
}

const id = (runId: string) => ({ org: 'lite', namespace: 'ns', agent: 'worker', userId: 'u', sessionId: 's', runId })
const ctx = (ms: number) => ({
  actor: 'worker',
  sourceTrace: 'host/1',
  now: () => new Date(Date.UTC(2026, 10, 20, 8, 0, 0) + ms),
})
const at = (ms: number) => () => new Date(Date.UTC(2026, 10, 20, 8, 0, 0) + ms)

/** The analytics sums as a comparable list (zero rows dropped). */
async function sums(): Promise<string[]> {
  const r = runRollupNames(getConfig().databases.runs)
  const found = await rows(
    `SELECT level, org, namespace, agent, kind, toString(at) AS at, status, bucket, sum(runs) AS runs, sum(extra) AS extra FROM ${r.sums}
     GROUP BY level, org, namespace, agent, kind, at, status, bucket HAVING runs != 0 OR extra != 0
     ORDER BY level, org, namespace, agent, kind, at, status, bucket`,
    z.record(z.string(), z.unknown()),
  )
  return found.map((x) => JSON.stringify(x))
}

describe('after db:init', () => {
  before(async () => {
    await runDbInit({ history: true, runIndex: true, dryRun: false, log: () => {} })
    forgetExistingTables()
  })

  test('one view reads loom.working_memory (the history capture, a copy of the row), none reads loom.runs', async () => {
    const t = tableNames()
    const bySource = await viewsBySource()
    assert.deepEqual(bySource.get(t.workingMemory), [t.historyView])
    assert.equal(bySource.get(t.runs), undefined)
    // Nothing else of ours is fed by an insert anywhere (no chains through our own tables either).
    assert.deepEqual([...bySource.values()].flat(), [t.historyView])
    const [{ ddl }] = await rows(
      `SELECT create_table_query AS ddl FROM system.tables WHERE concat(database, '.', name) = '${t.historyView}'`,
      z.object({ ddl: z.string() }),
    )
    assert.doesNotMatch(
      ddl,
      /\bJOIN\b|\bGROUP BY\b|\bIN\s*\(/i,
      'the capture copies the row: no lookup, no aggregation',
    )
  })

  test("agents' writes reach the derived tables through a batch, which says how far it got", async () => {
    const r = id('late-run')
    await runBegin({ ...r, goal: 'derived later' }, at(0))
    await wmSet({ ...r, blockKey: 'checkpoint' }, 'item-1', ctx(1000))
    const ix = runIndexNames(getConfig().databases.runs)
    // Nothing on the write path: the index has not seen the run yet.
    assert.equal(await count(`${ix.runs} WHERE run_id = 'late-run'`), 0)
    const report = await deriveNow()
    assert.equal(report.runs, 1)
    assert.equal(await count(`${ix.runs} WHERE run_id = 'late-run'`), 1)
    const listed = await listRuns({ filter: { org: 'lite' }, limit: 10 })
    assert.deepEqual(
      listed.runs.map((x) => [x.runId, x.status, x.checkpoint?.version]),
      [['late-run', 'running', '1']],
    )
    const health = await getHealth()
    assert.equal(health.derived.error, null)
    assert.ok(health.derived.lagMs !== null && health.derived.lagMs < 60_000, `lag ${health.derived.lagMs}`)
    assert.ok(health.derived.lastRunAt && Date.parse(health.derived.lastRunAt) > Date.now() - 60_000)
    // A batch with nothing new writes nothing.
    const logRows = await count(`${getConfig().databases.runs}.run_index_derive_log`)
    assert.equal((await deriveNow()).seq, null)
    assert.equal(await count(`${getConfig().databases.runs}.run_index_derive_log`), logRows)
  })

  test("an operator's write is derived before its answer; an agent's write holds up no read", async () => {
    const r = id('op-run')
    const ix = runIndexNames(getConfig().databases.runs)
    const latest = async () =>
      (
        await rows(
          `SELECT max(version) AS v FROM ${ix.checkpoints} WHERE run_id = 'op-run'`,
          z.object({ v: z.coerce.number() }),
        )
      )[0].v
    await runBegin({ ...r, goal: 'edited' }, at(0))
    await wmSet({ ...r, blockKey: 'checkpoint' }, 'item-1', ctx(1000))
    await deriveNow()
    assert.equal(await latest(), 1)
    const res = await call(
      putBlock,
      '/x?userId=u&sessionId=s',
      { org: r.org, namespace: r.namespace, agent: r.agent, runId: r.runId, blockKey: 'checkpoint' },
      {
        method: 'PUT',
        body: { content: 'item-0', expectedVersion: '1', reason: 'redo item 1' },
      },
    )
    assert.equal(res.status, 200, JSON.stringify(res.body))
    // No deriveNow here: the answer came after the batch that covers the edit.
    assert.equal(await latest(), 2)
    const batches = deriveStatus().batches
    // An agent's write (here, the live demo's kind) is left to the timer: the next read answers at once.
    await asAgentWrites(() => wmSet({ ...r, blockKey: 'checkpoint' }, 'item-0 item-1', ctx(3000)))
    const listed = await listRuns({ filter: { org: 'lite' }, limit: 50 })
    assert.equal(deriveStatus().batches, batches)
    assert.equal(listed.runs.find((x) => x.runId === 'op-run')?.checkpoint?.version, '2')
    // A write made in this process outside both (a script, a test) is derived before the next read.
    await wmSet({ ...r, blockKey: 'checkpoint' }, 'item-0 item-1 item-2', ctx(4000))
    const after = await listRuns({ filter: { org: 'lite' }, limit: 50 })
    assert.equal(after.runs.find((x) => x.runId === 'op-run')?.checkpoint?.version, '4')
    assert.equal(deriveStatus().batches, batches + 1)
  })

  test('a batch that fails half-way is resumed and neither loses nor doubles a row of the sums', async () => {
    const r = runRollupNames(getConfig().databases.runs)
    for (const i of [1, 2, 3]) {
      const run = id(`retry-${i}`)
      await runBegin({ ...run, goal: 'retry' }, at(i * 1000))
      await wmSet({ ...run, blockKey: 'checkpoint' }, 'x'.repeat(10 * i), ctx(i * 1000 + 10))
      if (i === 2) await runComplete({ ...run, status: 'failed' }, at(i * 1000 + 20))
    }
    // The top-values table goes missing: the batch fails on its last step, after the sums and states were written.
    await command(`RENAME TABLE ${r.top} TO ${r.top}_away`)
    await assert.rejects(deriveNow())
    assert.match(deriveStatus().error ?? '', /run_index_rollup_top|UNKNOWN_TABLE|missing/i)
    assert.equal((await getHealth()).derived.error, deriveStatus().error)
    await command(`RENAME TABLE ${r.top}_away TO ${r.top}`)
    // The next call resumes that batch (same dirty runs, same staged states, the same sums insert, refused as a repeat).
    await deriveNow()
    assert.equal(deriveStatus().error, null)
    const afterRetry = await sums()
    // The same totals as deriving everything again from the rows.
    await installDerived({ rebuild: true })
    assert.deepEqual(await sums(), afterRetry)
    assert.ok(
      afterRetry.some((s) => s.includes('"status":"failed"')),
      'the failed run is counted',
    )
  })
})

describe('upgrade and removal', () => {
  test('an install with the earlier views on Loom tables moves to batches; Loom tables are never dropped', async () => {
    const t = tableNames()
    const db = getConfig().databases.runs
    const legacy = legacyObjects(db)
    // What an earlier version left: a view on each Loom table and its marker.
    await command(`CREATE TABLE IF NOT EXISTS ${db}.run_index_tie_probe (org String) ENGINE = Null`)
    await command(
      `CREATE MATERIALIZED VIEW IF NOT EXISTS ${legacy.views[0]} TO ${db}.run_index_tie_probe AS SELECT org FROM ${t.runs}`,
    )
    await command(
      `CREATE MATERIALIZED VIEW IF NOT EXISTS ${db}.run_index_checkpoints_mv TO ${db}.run_index_tie_probe AS SELECT org FROM ${t.workingMemory}`,
    )
    await command(`DROP TABLE IF EXISTS ${runIndexNames(db).meta}`)
    await command(
      `CREATE TABLE ${db}.run_index_meta_v6 (installed_at DateTime64(3)) ENGINE = MergeTree ORDER BY installed_at`,
    )
    const loomRows = await count(t.workingMemory)
    const lines: string[] = []
    await runDbInit({ history: true, runIndex: true, dryRun: true, log: (l) => lines.push(l) })
    const dry = lines.join('\n')
    for (const name of [legacy.views[0], `${db}.run_index_checkpoints_mv`, `${db}.run_index_meta_v6`])
      assert.match(dry, new RegExp(`DROP TABLE IF EXISTS ${name.replace('.', '\\.')};`))
    assert.doesNotMatch(dry, /DROP TABLE IF EXISTS loom\./, 'a dry run never plans to drop a Loom table')
    assert.ok((await existingTables([db])).has(legacy.views[0]), 'a dry run changes nothing')

    await runDbInit({ history: true, runIndex: true, dryRun: false, log: () => {} })
    forgetExistingTables()
    const bySource = await viewsBySource()
    assert.deepEqual([...bySource.values()].flat(), [t.historyView])
    assert.equal(await count(t.workingMemory), loomRows)
    const listed = await listRuns({ filter: { org: 'lite' }, limit: 10 })
    assert.ok(
      listed.runs.some((x) => x.runId === 'late-run'),
      'derived again from the rows after the upgrade',
    )
  })

  test('db:uninstall removes every object of the console and leaves Loom alone', async () => {
    const { databases } = getConfig()
    const t = tableNames()
    const before = await existingTables([databases.runs, databases.loom])
    const plan = uninstallPlan(before)
    assert.equal(plan[0], t.historyView, 'the capture view goes first, so no agent insert fires it meanwhile')
    for (const o of derivedTables(databases.runs)) assert.ok(plan.includes(o.name), o.name)
    assert.ok(!plan.some((n) => n.startsWith(`${databases.loom}.`)))
    const loomRows = await count(t.workingMemory)
    await uninstallConsole()
    const after = await existingTables([databases.runs, databases.loom])
    assert.deepEqual(
      [...after].filter((n) => n.startsWith(`${databases.runs}.`)),
      [],
    )
    assert.equal(await count(t.workingMemory), loomRows)
    // An agent's insert now costs the bare table: nothing of ours fires.
    assert.deepEqual([...(await viewsBySource()).values()].flat(), [])
    await getClient().command({ query: 'SELECT 1' })
  })
})

describe('the runs page says how old derived data is', () => {
  test('past 5 s of lag, or on a failing batch, and not otherwise', () => {
    assert.equal(freshnessNote({ lagMs: 800, lastRunAt: '2026-11-20T08:00:00.000Z', error: null }), null)
    assert.equal(freshnessNote({ lagMs: null, lastRunAt: null, error: null }), null)
    const late = freshnessNote({ lagMs: 42_000, lastRunAt: '2026-11-20T08:00:00.000Z', error: null })
    assert.equal(late?.tone, 'warning')
    assert.match(late!.text, /42s behind the agents' writes/)
    const failing = freshnessNote({ lagMs: 9_000, lastRunAt: '2026-11-20T08:00:00.000Z', error: 'ClickHouse error 60' })
    assert.equal(failing?.tone, 'error')
    assert.match(failing!.text, /failing \(ClickHouse error 60\)/)
  })
})

describe('on a cluster', () => {
  test('LOOM_RUNS_CLUSTER makes every statement ON CLUSTER with Replicated engines', () => {
    const db = getConfig().databases.runs
    for (const o of derivedTables(db)) {
      const ddl = forCluster(o.sql, 'loom_cluster')
      assert.match(
        ddl,
        new RegExp(`^CREATE TABLE IF NOT EXISTS ${o.name.replace('.', '\\.')} ON CLUSTER loom_cluster \\(`),
      )
      assert.match(ddl, /ENGINE = Replicated(Replacing|Aggregating|Summing)?MergeTree\b/)
    }
    assert.equal(forCluster(`DROP TABLE IF EXISTS ${db}.x`, 'c1'), `DROP TABLE IF EXISTS ${db}.x ON CLUSTER c1`)
    const [, view] = [tableNames().history, tableNames().historyView]
    assert.match(
      forCluster(`CREATE MATERIALIZED VIEW IF NOT EXISTS ${view} TO t AS SELECT 1`, 'c1'),
      /^CREATE MATERIALIZED VIEW IF NOT EXISTS \S+ ON CLUSTER c1 TO t/,
    )
    assert.throws(() => forCluster('CREATE TABLE a.b (x UInt8) ENGINE = MergeTree ORDER BY x', 'bad name;'))
  })
})
