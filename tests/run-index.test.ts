/**
 * The run index answers the runs list exactly as the union query does (same runs, same order,
 * same pages and cursors, same fields), on a small generated dataset plus the edge cases:
 * ties, checkpoint-only runs, a checkpoint-only run that later begins, unmerged run versions,
 * identities that sort differently in UTF-8 and UTF-16, and a stale orphan left by a race.
 */
import assert from 'node:assert/strict'
import { before, describe, test } from 'node:test'
import { z } from 'zod'
import { decodeCursor } from '../lib/api/cursor'
import { queryRows, selectRows } from '../lib/clickhouse/query'
import { sql } from '../lib/clickhouse/sql'
import { getConfig } from '../lib/config'
import { runIndexNames } from '../lib/derived/names'
import { runBegin, runComplete } from '../lib/loom/runs'
import { wmSet } from '../lib/loom/working-memory'
import { runIndexReady } from '../lib/run-set/run-index'
import { listRuns } from '../lib/queries/runs'
import { workingMemoryRunScope } from '../lib/queries/wm-run-scope'
import { runBlocks } from '../lib/queries/working-memory'
import { indexRunsSql } from '../lib/run-set/index-runs'
import { ensureReady } from '../lib/server/ready'
import { useFreshEngine } from './helpers/engine'
import { loadGeneratedRuns } from './helpers/generated-runs'

useFreshEngine('run-index')

const ANCHOR = Date.parse('2026-11-20T12:00:00.000Z')

before(async () => {
  await ensureReady()
  // ~2,500 runs through the materialized views (the index is installed before the load).
  const { exec } = await loadGeneratedRuns(
    { runs: 2500, versions: 12_000, turns: 500, memories: 500, searches: 500 },
    { salt: 7, anchorMs: ANCHOR, spanDays: 3, cpOnlyRatio: 0.08 },
    700,
  )

  const at = (iso: string) => () => new Date(iso)
  const ctx = (iso: string, actor = 'edge') => ({ actor, sourceTrace: 'h/1', now: at(iso) })
  // Ties on started_at across orgs, namespaces and agents, with names whose UTF-8 and UTF-16 orders differ.
  const names = ['a', 'z', 'Ω', '\uFB00', '\u{1F600}', 'é', 'Z']
  for (const [i, agent] of names.entries()) {
    for (const org of ['edge', 'edgé']) {
      await runBegin(
        { org, namespace: 'ns', agent, userId: '', sessionId: '', runId: `tie-${i}`, goal: `tie ${agent}` },
        at('2026-11-19T08:00:00.000Z'),
      )
    }
  }
  // Checkpoint-only runs tied with those runs: the merge of both parts must order them as ClickHouse does.
  for (const [i, agent] of names.entries()) {
    await wmSet(
      { org: 'edge', namespace: 'ns', agent, userId: '', sessionId: '', runId: `tie-cp-${i}`, blockKey: 'checkpoint' },
      'x',
      ctx('2026-11-19T08:00:00.000Z'),
    )
  }
  // A run with several versions (begin, complete) and a checkpoint under its own session and another one.
  const multi = { org: 'edge', namespace: 'ns', agent: 'multi', userId: 'u1', sessionId: 's1', runId: 'multi-1' }
  await runBegin({ ...multi, goal: 'Reconcile INVOICES twice' }, at('2026-11-19T09:00:00.000Z'))
  await wmSet({ ...multi, blockKey: 'checkpoint' }, 'one', ctx('2026-11-19T09:01:00.000Z'))
  await wmSet({ ...multi, sessionId: 's2', blockKey: 'checkpoint' }, 'other session', ctx('2026-11-19T09:02:00.000Z'))
  await runComplete({ ...multi, status: 'failed', turns: 2, costUsd: 0.5 }, at('2026-11-19T09:03:00.000Z'))
  // Checkpoint-only runs: blocks under two identities (the newest names the run).
  const lone = { org: 'edge', namespace: 'ns', agent: 'lone', runId: 'cp-lone' }
  await wmSet({ ...lone, userId: 'old', sessionId: 'x', blockKey: 'checkpoint' }, 'v', ctx('2026-11-19T10:00:00.000Z'))
  await wmSet({ ...lone, userId: 'new', sessionId: 'y', blockKey: 'notes' }, 'n', ctx('2026-11-19T10:05:00.000Z'))
  // A run that checkpoints first and calls run.begin later: listed once, as a run.
  const late = { org: 'edge', namespace: 'ns', agent: 'late', userId: '', sessionId: '', runId: 'late-begin' }
  await wmSet({ ...late, blockKey: 'checkpoint' }, 'early', ctx('2026-11-19T11:00:00.000Z'))
  await runBegin({ ...late, goal: 'began after its checkpoint' }, at('2026-11-19T11:10:00.000Z'))
  // What a run row written at the same moment as the run's first checkpoint can leave behind:
  // a first-write entry and an orphan record with no later mark (the lookups raced).
  const ix = runIndexNames(getConfig().databases.runs)
  await exec(`INSERT INTO ${ix.orphans} SELECT 'edge', 'ns', 'multi', 'multi-1', toDateTime64('2026-11-18 00:00:00', 3, 'UTC'),
      argMaxState(('u9', 's9'), (toDateTime64('2026-11-18 00:00:00', 3, 'UTC'), toUInt64(1))), toUInt8(0)`)
  await exec(`INSERT INTO ${ix.runs} (org, namespace, agent, run_id, status, started_at, version, kind)
      VALUES ('edge', 'ns', 'multi', 'multi-1', 'unknown', '2026-11-18 00:00:00.000', 0, 1)`)
})

type Filter = Parameters<typeof listRuns>[0]['filter']

async function allPages(filter: Filter, limit: number, source: 'index' | 'union') {
  const pages: { runs: unknown[]; nextCursor: string | null }[] = []
  let cursor: string | null = null
  do {
    const page = await listRuns({ filter, cursor: cursor ? decodeCursor(cursor)! : undefined, limit, source })
    pages.push(page)
    cursor = page.nextCursor
    assert.ok(pages.length < 2000, 'pagination terminates')
  } while (cursor)
  return pages
}

function keys(pages: { runs: unknown[] }[]) {
  return pages.flatMap((p) =>
    p.runs.map((r) =>
      JSON.stringify([
        (r as { org: string }).org,
        (r as { namespace: string }).namespace,
        (r as { agent: string }).agent,
        (r as { runId: string }).runId,
      ]),
    ),
  )
}

describe('run index', () => {
  test('is installed in embedded mode and used by default', async () => {
    assert.equal(await runIndexReady(), true)
  })

  test('every page equals the union query, with no duplicates or gaps', async () => {
    const index = await allPages({}, 97, 'index')
    const union = await allPages({}, 97, 'union')
    assert.deepEqual(index, union)
    const all = keys(index)
    assert.ok(all.length > 2500, `listed ${all.length} runs`)
    assert.equal(new Set(all).size, all.length, 'no run twice')
    assert.deepEqual(
      await listRuns({ filter: {}, limit: 50 }),
      await listRuns({ filter: {}, limit: 50, source: 'union' }),
    )
  })

  const filters: [string, Filter][] = [
    ['org', { org: 'acme' }],
    ['org + namespace', { org: 'acme', namespace: 'prod' }],
    ['agent', { agent: 'support-triage' }],
    ['status running', { status: 'running' }],
    ['status failed', { status: 'failed' }],
    ['status succeeded', { status: 'succeeded' }],
    ['status cancelled', { status: 'cancelled' }],
    ['status unknown', { status: 'unknown' }],
    ['q in goals', { q: 'invoice' }],
    ['q in run ids', { q: 'RUN_A' }],
    ['time range', { from: new Date('2026-11-18T00:00:00Z'), to: new Date('2026-11-19T12:00:00Z') }],
    ['org edge (ties, unicode)', { org: 'edge' }],
    ['everything at once', { org: 'acme', namespace: 'prod', q: 'e', from: new Date('2026-11-17T00:00:00Z') }],
  ]
  for (const [name, filter] of filters) {
    test(`filter: ${name}`, async () => {
      for (const limit of [name.includes('edge') ? 3 : 41, 200]) {
        const index = await allPages(filter, limit, 'index')
        const union = await allPages(filter, limit, 'union')
        assert.deepEqual(keys(index), keys(union))
        assert.deepEqual(index, union)
      }
    })
  }

  test('run-scoped working-memory reads through the index see exactly the run’s rows', async () => {
    assert.match(
      (await workingMemoryRunScope({ org: 'o', namespace: 'n', agent: 'a', runId: 'r' })).sql,
      /run_index_sessions/,
    )
    const page = await listRuns({ filter: {}, limit: 40, source: 'index' })
    const edge = await listRuns({ filter: { org: 'edge' }, limit: 40, source: 'index' })
    for (const r of [...page.runs, ...edge.runs]) {
      const ref = { org: r.org, namespace: r.namespace, agent: r.agent, runId: r.runId }
      const viaIndex = await runBlocks(ref)
      const plain = await queryRows(
        `SELECT user_id, session_id, block_key, toString(version) AS version FROM loom.working_memory FINAL
         WHERE org = {org:String} AND namespace = {namespace:String} AND agent = {agent:String} AND run_id = {run_id:String}
         ORDER BY block_key != 'checkpoint', user_id, session_id, block_key`,
        { org: r.org, namespace: r.namespace, agent: r.agent, run_id: r.runId },
        z.object({ user_id: z.string(), session_id: z.string(), block_key: z.string(), version: z.string() }),
      )
      assert.deepEqual(
        viaIndex.map((b) => [b.userId, b.sessionId, b.blockKey, b.version]),
        plain.map((b) => [b.user_id, b.session_id, b.block_key, b.version]),
        `${r.agent}/${r.runId}`,
      )
    }
  })

  test('indexRunsSql (for aggregations) holds the same runs as the list', async () => {
    for (const filter of [
      {},
      { org: 'edge' },
      { status: 'unknown' },
      { status: 'failed', q: 'invoice' },
      { from: new Date('2026-11-19T00:00:00Z') },
    ] as Filter[]) {
      const rows = await selectRows(
        sql`SELECT org, namespace, agent, run_id FROM (${await indexRunsSql(filter, new Date())})`,
        z.object({ org: z.string(), namespace: z.string(), agent: z.string(), run_id: z.string() }),
      )
      const listed = keys(await allPages(filter, 200, 'union'))
      assert.deepEqual(
        rows.map((r) => JSON.stringify([r.org, r.namespace, r.agent, r.run_id])).sort(),
        [...listed].sort(),
        JSON.stringify(filter),
      )
    }
  })

  test('edge cases come out as the contract says', async () => {
    const page = await listRuns({ filter: { org: 'edge' }, limit: 200, source: 'index' })
    const byId = new Map(page.runs.map((r) => [`${r.agent}/${r.runId}`, r]))
    assert.equal(page.runs.filter((r) => r.runId === 'multi-1').length, 1, 'a stale orphan never doubles a run')
    const multi = byId.get('multi/multi-1')!
    assert.equal(multi.status, 'failed')
    assert.equal(multi.checkpoint?.sessionId, 's1', 'the checkpoint under the run’s own identity')
    const lone = byId.get('lone/cp-lone')!
    assert.deepEqual([lone.status, lone.userId, lone.sessionId, lone.attempt], ['unknown', 'new', 'y', 0])
    assert.equal(lone.startedAt, '2026-11-19T10:00:00.000Z')
    assert.equal(lone.checkpoint?.userId, 'old')
    const late = page.runs.filter((r) => r.runId === 'late-begin')
    assert.deepEqual(
      late.map((r) => r.status),
      ['running'],
    )
    assert.equal(late[0].checkpoint?.version, '1')
    const running = await listRuns({ filter: { org: 'edge', status: 'running' }, limit: 200, source: 'index' })
    assert.ok(!running.runs.some((r) => r.runId === 'multi-1'), 'an older version never passes a status filter')
  })
})
