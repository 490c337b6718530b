/**
 * The analytics from the run rollup equal the direct queries' for every filter the rollup serves:
 * on generated runs loaded through the materialized views, on runs written one by one after start-up
 * (a checkpoint-only run that begins later, a resumed run, a checkpoint that shrinks and is cleared,
 * a run row that arrives after a newer one), and after the rollup is rebuilt from the rows.
 * Filters the rollup cannot serve say so and give the direct answer.
 */
import assert from 'node:assert/strict'
import { before, describe, test } from 'node:test'
import { installRunIndex } from '../lib/setup/init'
import { runBegin, runComplete } from '../lib/loom/runs'
import { tableNames } from '../lib/loom/tables'
import { wmDelete, wmSet } from '../lib/loom/working-memory'
import { runsAnalytics } from '../lib/queries/analytics'
import type { RunsFilter as Filter } from '../lib/run-set/filter'
import { ensureReady } from '../lib/server/ready'
import { useFreshEngine } from './helpers/engine'
import { loadGeneratedRuns } from './helpers/generated-runs'

useFreshEngine('analytics-rollup')

const ANCHOR = Date.parse('2026-11-20T12:00:00.000Z')
const at = (iso: string) => () => new Date(iso)
const ctx = (iso: string, actor = 'agent') => ({ actor, sourceTrace: 'p/1', now: at(iso) })

let exec: (sql: string) => Promise<void>
let select: <T>(sql: string) => Promise<T[]>

const NOW = Date.parse('2026-11-26T00:00:00.000Z')
const analytics = (f: Filter, direct: boolean) => runsAnalytics(f, undefined, NOW, { direct })

/** Filters the rollup serves, over the generated data and the hand-written runs (org "edge"). */
function servedFilters(gen: { org: string; namespace: string; agent: string }): Filter[] {
  return [
    {},
    { status: 'succeeded' },
    { status: 'unknown' },
    { status: 'running' },
    { org: gen.org },
    { org: gen.org, namespace: gen.namespace },
    { org: gen.org, namespace: gen.namespace, agent: gen.agent },
    { org: gen.org, status: 'failed' },
    { org: 'edge' },
    { org: 'edge', namespace: 'ns', agent: 'late' },
    { org: 'nobody' },
  ]
}

async function compare(f: Filter) {
  const direct = await analytics(f, true)
  const rolled = await analytics(f, false)
  assert.equal(direct.servedFrom, 'query')
  assert.equal(rolled.servedFrom, 'aggregates', JSON.stringify(f))
  assert.deepEqual({ ...rolled, servedFrom: 'query' }, direct, `filter ${JSON.stringify(f)}`)
  return direct
}

let sample: { org: string; namespace: string; agent: string }

before(async () => {
  await ensureReady()
  // ~2,000 runs written after start-up (the rollup is installed then): the derivation batches pick them up.
  ;({ exec, select } = await loadGeneratedRuns(
    { runs: 2000, versions: 10_000, turns: 200, memories: 200, searches: 200 },
    { salt: 11, anchorMs: ANCHOR, spanDays: 6, cpOnlyRatio: 0.08 },
    500,
  ))
  ;[sample] = await select<{ org: string; namespace: string; agent: string }>(
    'SELECT org, namespace, agent FROM loom.runs GROUP BY org, namespace, agent ORDER BY count() DESC, org, namespace, agent LIMIT 1',
  )

  const who = (agent: string, runId: string) => ({
    org: 'edge',
    namespace: 'ns',
    agent,
    userId: 'u',
    sessionId: 's',
    runId,
  })
  // A checkpoint-only run that begins later: counted as unknown, then as running from its begin.
  const late = who('late', 'late-1')
  await wmSet({ ...late, blockKey: 'checkpoint' }, '{"done": 1}', ctx('2026-11-19T11:00:00.000Z'))
  await wmSet({ ...late, blockKey: 'notes' }, 'n', ctx('2026-11-19T11:05:00.000Z'))
  await runBegin({ ...late, goal: 'began after its checkpoint' }, at('2026-11-19T13:10:00.000Z'))
  // A checkpoint-only run that stays one, written under two sessions.
  const lone = who('lone', 'lone-1')
  await wmSet({ ...lone, blockKey: 'checkpoint' }, 'x'.repeat(50), ctx('2026-11-19T09:00:00.000Z'))
  await wmSet({ ...lone, sessionId: 's2', blockKey: 'checkpoint' }, 'y'.repeat(10), ctx('2026-11-19T09:30:00.000Z'))
  // A resumed run that fails, then is resumed again and succeeds, with a costly last attempt.
  const resumed = who('resumer', 'res-1')
  await runBegin({ ...resumed, goal: 'resumed twice' }, at('2026-11-20T08:00:00.000Z'))
  await wmSet({ ...resumed, blockKey: 'checkpoint' }, '{"done": 3}', ctx('2026-11-20T08:10:00.000Z'))
  await runBegin({ ...resumed, goal: 'resumed twice' }, at('2026-11-21T08:00:00.000Z'))
  await runComplete({ ...resumed, status: 'failed', turns: 3, costUsd: 9999 }, at('2026-11-21T08:30:00.000Z'))
  await runBegin({ ...resumed, goal: 'resumed twice' }, at('2026-11-22T08:00:00.000Z'))
  await runComplete({ ...resumed, status: 'succeeded', turns: 9, costUsd: 12345 }, at('2026-11-22T09:00:00.000Z'))
  // A checkpoint near its limit that shrinks, and one that is cleared.
  const shrink = who('shrinker', 'shr-1')
  await runBegin({ ...shrink, goal: 'shrinks' }, at('2026-11-20T10:00:00.000Z'))
  await wmSet({ ...shrink, blockKey: 'checkpoint' }, 'z'.repeat(95), ctx('2026-11-20T10:01:00.000Z'), {
    charLimit: 100,
  })
  await wmSet({ ...shrink, blockKey: 'checkpoint' }, 'z'.repeat(15), ctx('2026-11-20T10:02:00.000Z'))
  const cleared = who('clearer', 'clr-1')
  await runBegin({ ...cleared, goal: 'cleared' }, at('2026-11-20T11:00:00.000Z'))
  await wmSet({ ...cleared, blockKey: 'checkpoint' }, '{"done": 2}', ctx('2026-11-20T11:01:00.000Z'))
  await wmDelete({ ...cleared, blockKey: 'checkpoint' }, ctx('2026-11-20T11:02:00.000Z', 'operator:alice'))
  // An older run row arriving after a newer one (a late insert): the newer version stands.
  const runsTable = tableNames().runs
  await exec(`INSERT INTO ${runsTable} (org, namespace, agent, user_id, session_id, run_id, goal, status, attempt, started_at, last_begin_at, cost_usd, duration_ms, version)
    VALUES ('edge', 'ns', 'ooo', 'u', 's', 'ooo-1', 'out of order', 'succeeded', 1, '2026-11-21 00:00:00.000', '2026-11-21 00:00:00.000', 50000, 3600000, 5)`)
  await exec(`INSERT INTO ${runsTable} (org, namespace, agent, user_id, session_id, run_id, goal, status, attempt, started_at, last_begin_at, cost_usd, duration_ms, version)
    VALUES ('edge', 'ns', 'ooo', 'u', 's', 'ooo-1', 'out of order', 'running', 1, '2026-11-21 00:00:00.000', '2026-11-21 00:00:00.000', 60000, NULL, 3)`)
})

describe('analytics from the run rollup', () => {
  test('equal the direct queries for every filter the rollup serves', async () => {
    for (const f of servedFilters(sample)) await compare(f)
  })

  test('count the hand-written runs as the direct queries do', async () => {
    const edge = await compare({ org: 'edge' })
    assert.equal(edge.totals.runs, 6)
    assert.deepEqual(edge.totals.byStatus, { running: 3, succeeded: 2, unknown: 1 })
    assert.equal(edge.resumes.resumedRuns, 1)
    assert.equal(edge.resumes.extraAttempts, 2)
    assert.deepEqual(
      edge.costliest.map((r) => r.runId),
      ['ooo-1', 'res-1'],
    )
    assert.equal(edge.costliest[0].costUsd, 50000)
    assert.equal(edge.checkpointSizes.cleared, 1)
    assert.equal(edge.checkpointSizes.nearLimit, 0)
    const all = await compare({})
    assert.equal(all.costliest[0].runId, 'ooo-1')
  })

  test('follow writes made after start-up', async () => {
    const late = { org: 'edge', namespace: 'ns', agent: 'late', userId: 'u', sessionId: 's', runId: 'late-1' }
    await runComplete({ ...late, status: 'cancelled', turns: 1, costUsd: 70000 }, at('2026-11-19T14:00:00.000Z'))
    await wmSet({ ...late, sessionId: 's3', blockKey: 'checkpoint' }, '123456789', ctx('2026-11-19T14:01:00.000Z'), {
      charLimit: 10,
    })
    const edge = await compare({ org: 'edge' })
    assert.deepEqual(edge.totals.byStatus, { running: 2, succeeded: 2, unknown: 1, cancelled: 1 })
    assert.equal(edge.checkpointSizes.nearLimit, 1)
    assert.equal(edge.costliest[0].runId, 'late-1')
    for (const f of servedFilters(sample)) await compare(f)
  })

  test('are rebuilt from the rows with the same answers', async () => {
    const report = await installRunIndex({ rebuild: true })
    assert.equal(report.backfilled, true)
    for (const f of servedFilters(sample)) await compare(f)
  })

  test('free text, time ranges, flags and a namespace without its org are answered by the direct queries', async () => {
    for (const f of [
      { q: 'invoice' },
      { from: new Date('2026-11-19T00:00:00.000Z') },
      { flag: ['resumed' as const] },
      { namespace: 'ns' },
    ] satisfies Filter[]) {
      const a = await analytics(f, false)
      assert.equal(a.servedFrom, 'query', JSON.stringify(f))
    }
  })
})
