import assert from 'node:assert/strict'
import { before, describe, test } from 'node:test'
import { command } from '../lib/clickhouse/query'
import { runIndexNames } from '../lib/derived/names'
import { runBegin, runComplete } from '../lib/loom/runs'
import { wmDelete, wmSet } from '../lib/loom/working-memory'
import { runIndexReady } from '../lib/run-set/run-index'
import { ensureReady } from '../lib/server/ready'
import { GET as analyticsRoute } from '../app/api/runs/analytics/route'
import { GET as changesRoute } from '../app/api/runs/changes/route'
import { useFreshEngine } from './helpers/engine'
import { call, columns } from './helpers/routes'

useFreshEngine('api-analytics')

const at = (iso: string) => () => new Date(iso)
const MIN = 60_000
const HOUR = 60 * MIN

type Who = { org: string; namespace: string; agent: string; userId: string; sessionId: string; runId: string }
const who = (org: string, agent: string, runId: string, userId = '', sessionId = ''): Who => ({
  org,
  namespace: 'prod',
  agent,
  userId,
  sessionId,
  runId,
})

// Runs of the analytics fixtures (all started 2026-11-20 or 2026-11-21, UTC).
const A1 = who('acme', 'alpha', 'a1')
const A2 = who('acme', 'alpha', 'a2')
const A3 = who('acme', 'alpha', 'a3')
const A4 = who('acme', 'beta', 'a4')
const A5 = who('acme', 'beta', 'a5')
const G1 = who('globex', 'alpha', 'g1')
const O1 = who('acme', 'gamma', 'orphan-1', 'u1', 's1')

// Runs of the changes fixtures (org "live", 2026-11-25).
const T0 = Date.parse('2026-11-25T10:00:00.000Z')
const L1 = who('live', 'l-agent-1', 'l1')
const L2 = who('live', 'l-agent-2', 'l2')
const L3 = who('live', 'l-agent-2', 'l3')

before(async () => {
  await ensureReady()
  const cp = (w: Who, content: string, iso: string, charLimit = 100) =>
    wmSet(
      { ...w, blockKey: 'checkpoint' },
      content,
      { actor: w.agent, sourceTrace: 'h/1', now: at(iso) },
      { charLimit },
    )

  await runBegin({ ...A1, goal: 'Index invoices' }, at('2026-11-20T10:05:00Z'))
  await cp(A1, 'x'.repeat(50), '2026-11-20T10:10:00Z')
  await cp(A1, 'x'.repeat(95), '2026-11-20T10:20:00Z') // the latest version: 95 %
  await runComplete({ ...A1, status: 'succeeded', costUsd: 0.5 }, at('2026-11-20T10:35:00Z'))

  await runBegin({ ...A2, goal: 'Crawl the docs' }, at('2026-11-20T10:20:00Z'))
  await cp(A2, 'y'.repeat(10), '2026-11-20T10:30:00Z')
  // A newer checkpoint of the same run under another session: the run's latest checkpoint (30 %).
  await cp({ ...A2, userId: 'u9', sessionId: 's9' }, 'y'.repeat(30), '2026-11-20T10:40:00Z')
  await runComplete({ ...A2, status: 'failed', costUsd: 2 }, at('2026-11-20T11:20:00Z'))

  await runBegin({ ...A3, goal: 'Invoice export' }, at('2026-11-20T11:10:00Z'))
  await runBegin({ ...A3, goal: '' }, at('2026-11-20T12:00:00Z'))
  await cp(A3, 'done 1 2 3', '2026-11-20T12:10:00Z')
  await runBegin({ ...A3, goal: '' }, at('2026-11-21T09:00:00Z'))
  await wmDelete(
    { ...A3, blockKey: 'checkpoint' },
    { actor: 'alpha', sourceTrace: 'h/2', now: at('2026-11-21T09:29:00Z') },
  )
  await runComplete({ ...A3, status: 'succeeded', costUsd: 1 }, at('2026-11-21T09:30:00Z'))

  // Failed once (an older version with a duration), then resumed and still running: FINAL must see "running".
  await runBegin({ ...A4, goal: 'Nightly sync' }, at('2026-11-20T11:30:00Z'))
  await runComplete({ ...A4, status: 'failed' }, at('2026-11-20T12:00:00Z'))
  await runBegin({ ...A4, goal: '' }, at('2026-11-21T08:00:00Z'))
  await cp(A4, 'z'.repeat(100), '2026-11-21T08:05:00Z') // exactly at char_limit

  await runBegin({ ...A5, goal: 'Short job' }, at('2026-11-21T15:00:00Z'))
  await runComplete({ ...A5, status: 'cancelled', costUsd: 0.1 }, at('2026-11-21T15:10:00Z'))

  await runBegin({ ...G1, goal: 'Expensive job' }, at('2026-11-20T10:00:00Z'))
  await runBegin({ ...G1, goal: '' }, at('2026-11-20T10:00:30Z'))
  await cp(G1, 'g'.repeat(5), '2026-11-20T10:00:40Z', 1000)
  await runComplete({ ...G1, status: 'succeeded', costUsd: 5 }, at('2026-11-20T10:01:00Z'))

  await cp(O1, 'o'.repeat(70), '2026-11-20T12:30:00Z') // checkpoint-only: status unknown

  // Changes fixtures: everything at T0, then writes at T0 + 5 and + 6 minutes.
  const t = (ms: number) => at(new Date(T0 + ms).toISOString())
  await runBegin({ ...L1, goal: 'Live one' }, t(0))
  await runBegin({ ...L2, goal: 'Live two' }, t(0))
  await wmSet({ ...L2, blockKey: 'checkpoint' }, 'early', { actor: 'l', sourceTrace: 'h', now: t(30_000) })
  await wmSet({ ...L3, blockKey: 'checkpoint' }, 'first', { actor: 'l', sourceTrace: 'h', now: t(0) })
  await runComplete({ ...L1, status: 'succeeded' }, t(5 * MIN))
  await wmSet({ ...L3, blockKey: 'checkpoint' }, 'second', { actor: 'l', sourceTrace: 'h', now: t(6 * MIN) })
})

const RANGE = 'from=2026-11-20T00:00:00Z&to=2026-11-21T23:59:59Z'

async function analytics(query: string) {
  const res = await call(analyticsRoute, `/api/runs/analytics?${query}`)
  assert.equal(res.status, 200, JSON.stringify(res.body))
  return res.body
}

/** Non-empty buckets as { start: counts }. */
function nonEmpty(buckets: { start: string; counts: Record<string, number>; total: number }[]) {
  return Object.fromEntries(buckets.filter((b) => b.total > 0).map((b) => [b.start, b.counts]))
}

const ids = (runs: { runId: string }[]) => runs.map((r) => r.runId)

describe('GET /api/runs/analytics', () => {
  test('runs per status per hour over a two-day range, gaps filled', async () => {
    const body = await analytics(RANGE)
    assert.equal(body.statusOverTime.unit, 'hour')
    assert.equal(body.statusOverTime.buckets.length, 48)
    assert.equal(body.statusOverTime.buckets[0].start, '2026-11-20T00:00:00.000Z')
    assert.equal(body.statusOverTime.buckets[47].start, '2026-11-21T23:00:00.000Z')
    assert.deepEqual(nonEmpty(body.statusOverTime.buckets), {
      '2026-11-20T10:00:00.000Z': { succeeded: 2, failed: 1 },
      '2026-11-20T11:00:00.000Z': { succeeded: 1, running: 1 },
      '2026-11-20T12:00:00.000Z': { unknown: 1 },
      '2026-11-21T15:00:00.000Z': { cancelled: 1 },
    })
    assert.deepEqual(body.totals, {
      runs: 7,
      byStatus: { succeeded: 3, failed: 1, running: 1, unknown: 1, cancelled: 1 },
    })
  })

  test('a month-long range is charted per day', async () => {
    const body = await analytics('from=2026-11-01T00:00:00Z&to=2026-11-30T23:59:59Z&org=acme')
    assert.equal(body.statusOverTime.unit, 'day')
    assert.equal(body.statusOverTime.buckets.length, 30)
    assert.deepEqual(nonEmpty(body.statusOverTime.buckets), {
      '2026-11-20T00:00:00.000Z': { succeeded: 2, failed: 1, running: 1, unknown: 1 },
      '2026-11-21T00:00:00.000Z': { cancelled: 1 },
    })
  })

  test('with no time range the data decides: 29 hours of acme runs are charted per hour', async () => {
    const body = await analytics('org=acme')
    assert.equal(body.statusOverTime.unit, 'hour')
    assert.equal(body.statusOverTime.buckets[0].start, '2026-11-20T10:00:00.000Z')
    assert.equal(body.statusOverTime.buckets.at(-1).start, '2026-11-21T15:00:00.000Z')
    assert.equal(body.statusOverTime.buckets.length, 30)
  })

  test('resumes per day of the latest begin, with the extra attempts', async () => {
    const body = await analytics(RANGE)
    assert.deepEqual(body.resumes, {
      days: [
        { day: '2026-11-20', resumedRuns: 1, extraAttempts: 1 },
        { day: '2026-11-21', resumedRuns: 2, extraAttempts: 3 },
      ],
      resumedRuns: 3,
      extraAttempts: 4,
    })
  })

  test('checkpoint sizes: the latest checkpoint of each run, in 10 % buckets of char_limit', async () => {
    const body = await analytics(RANGE)
    const sizes = body.checkpointSizes
    assert.deepEqual(
      sizes.buckets.map((b: { fromPct: number; toPct: number; runs: number }) => [b.fromPct, b.toPct, b.runs]),
      [
        [0, 10, 1],
        [10, 20, 0],
        [20, 30, 0],
        [30, 40, 1],
        [40, 50, 0],
        [50, 60, 0],
        [60, 70, 0],
        [70, 80, 1],
        [80, 90, 0],
        [90, 100, 2],
      ],
    )
    assert.deepEqual(
      { runs: sizes.runs, cleared: sizes.cleared, nearLimit: sizes.nearLimit, overLimit: sizes.overLimit },
      { runs: 5, cleared: 1, nearLimit: 2, overLimit: 0 },
    )
  })

  test('slowest and costliest: top 5 in order, running runs have no duration', async () => {
    const body = await analytics(RANGE)
    assert.deepEqual(ids(body.slowest), ['a3', 'a2', 'a1', 'a5', 'g1'])
    assert.deepEqual(
      body.slowest.map((r: { durationMs: number }) => r.durationMs),
      [(22 * 60 + 20) * MIN, HOUR, 30 * MIN, 10 * MIN, MIN],
    )
    assert.deepEqual(ids(body.costliest), ['g1', 'a2', 'a3', 'a1', 'a5'])
    assert.deepEqual(
      body.costliest.map((r: { costUsd: number }) => r.costUsd),
      [5, 2, 1, 0.5, 0.1],
    )
    assert.deepEqual(
      { ...body.slowest[0] },
      {
        org: 'acme',
        namespace: 'prod',
        agent: 'alpha',
        runId: 'a3',
        goal: 'Invoice export',
        status: 'succeeded',
        startedAt: '2026-11-20T11:10:00.000Z',
        durationMs: (22 * 60 + 20) * MIN,
        costUsd: 1,
        attempt: 3,
        // Idle from its last write before the latest begin (12:10) to that begin (09:00 next day).
        activeMs: 90 * MIN,
        idleMs: (20 * 60 + 50) * MIN,
        idleKnown: 'partial',
      },
    )
  })

  test('filters narrow every chart: org', async () => {
    const body = await analytics(`${RANGE}&org=acme`)
    assert.deepEqual(nonEmpty(body.statusOverTime.buckets)['2026-11-20T10:00:00.000Z'], { succeeded: 1, failed: 1 })
    assert.equal(body.totals.runs, 6)
    assert.deepEqual(ids(body.costliest), ['a2', 'a3', 'a1', 'a5'])
    assert.equal(body.checkpointSizes.buckets[0].runs, 0)
    assert.deepEqual(
      body.resumes.days.map((d: { resumedRuns: number }) => d.resumedRuns),
      [0, 2],
    )
  })

  test('filters narrow every chart: status', async () => {
    const ok = await analytics(`${RANGE}&status=succeeded`)
    assert.deepEqual(ok.totals.byStatus, { succeeded: 3 })
    assert.deepEqual(ids(ok.slowest), ['a3', 'a1', 'g1'])
    assert.deepEqual(
      ok.checkpointSizes.buckets.map((b: { runs: number }) => b.runs),
      [1, 0, 0, 0, 0, 0, 0, 0, 0, 1],
    )
    assert.equal(ok.checkpointSizes.cleared, 1)
    assert.equal(ok.resumes.extraAttempts, 3)

    const unknown = await analytics(`${RANGE}&status=unknown`)
    assert.deepEqual(nonEmpty(unknown.statusOverTime.buckets), { '2026-11-20T12:00:00.000Z': { unknown: 1 } })
    assert.deepEqual(unknown.checkpointSizes.buckets[7].runs, 1)
    assert.equal(unknown.checkpointSizes.runs, 1)
    assert.deepEqual([unknown.slowest, unknown.costliest, unknown.resumes.resumedRuns], [[], [], 0])

    const running = await analytics(`${RANGE}&status=running`)
    assert.deepEqual(running.totals.byStatus, { running: 1 })
    assert.deepEqual(running.slowest, [])
  })

  test('filters narrow every chart: agent, free text, time range', async () => {
    const beta = await analytics('agent=beta')
    assert.deepEqual(beta.totals.byStatus, { running: 1, cancelled: 1 })
    assert.deepEqual(ids(beta.costliest), ['a5'])
    assert.deepEqual([beta.checkpointSizes.runs, beta.checkpointSizes.nearLimit], [1, 1])

    const text = await analytics(`${RANGE}&q=INVOICE`)
    assert.deepEqual(ids(text.slowest), ['a3', 'a1'])
    assert.equal(text.totals.runs, 2)

    const day2 = await analytics('from=2026-11-21T00:00:00Z&to=2026-11-21T23:59:59Z')
    assert.equal(day2.statusOverTime.unit, 'hour')
    assert.equal(day2.statusOverTime.buckets.length, 24)
    assert.deepEqual(day2.totals.byStatus, { cancelled: 1 })
    assert.deepEqual(ids(day2.slowest), ['a5'])
    assert.equal(day2.checkpointSizes.runs, 0)
  })

  test('an empty result still answers every chart', async () => {
    const body = await analytics('org=nobody')
    assert.deepEqual(body.statusOverTime.buckets, [])
    assert.equal(body.totals.runs, 0)
    assert.deepEqual(body.resumes.days, [])
    assert.equal(body.checkpointSizes.buckets.length, 10)
    assert.deepEqual([body.slowest, body.costliest], [[], []])
  })

  test('the run index and the union query give the same analytics for every filter', async () => {
    const filters = [
      '',
      RANGE,
      'org=acme',
      'org=acme&namespace=prod&agent=alpha',
      'status=unknown',
      'status=running',
      'status=failed',
      'q=invoice',
      `q=run&${RANGE}`,
      'org=nobody',
    ]
    const fromIndex = await Promise.all(filters.map((f) => analytics(f)))
    assert.ok(fromIndex[0].totals.runs >= 9, `the fixture has runs (${fromIndex[0].totals.runs})`)
    // Hide the index (its marker table) from the app: the analytics fall back to the union query.
    const meta = runIndexNames('loom_runs').meta
    const forget = () => delete (globalThis as { __loomRunsTables?: unknown }).__loomRunsTables
    await command(`RENAME TABLE ${meta} TO ${meta}_hidden`)
    forget()
    try {
      assert.equal(await runIndexReady(), false)
      const fromUnion = await Promise.all(filters.map((f) => analytics(f)))
      // The first filters are answered from the rollup with the index, by the queries without it.
      assert.equal(fromIndex[0].servedFrom, 'aggregates')
      assert.equal(fromUnion[0].servedFrom, 'query')
      const answer = (a: { servedFrom: string }) => ({ ...a, servedFrom: null })
      filters.forEach((f, i) => assert.deepEqual(answer(fromIndex[i]), answer(fromUnion[i]), `filter "${f}"`))
    } finally {
      await command(`RENAME TABLE ${meta}_hidden TO ${meta}`)
      forget()
    }
  })

  const bad: [string, string][] = [
    ['status=exploded', 'status'],
    ['from=yesterday', 'from'],
    ['to=2026-13-45', 'to'],
    ['from=2026-11-22T00:00:00Z&to=2026-11-21T00:00:00Z', 'from'],
    [`q=${'x'.repeat(201)}`, 'q'],
    [`org=${'o'.repeat(300)}`, 'org'],
  ]
  for (const [query, field] of bad) {
    test(`400 naming ${field} for ${query.slice(0, 50)}`, async () => {
      const res = await call(analyticsRoute, `/api/runs/analytics?${query}`)
      assert.equal(res.status, 400)
      assert.equal(res.body.error.code, 'invalid')
      assert.equal(res.body.error.field, field)
      assert.match(res.body.error.message, new RegExp(field))
    })
  }
})

describe('GET /api/runs/changes', () => {
  const since = (ms: number) => encodeURIComponent(new Date(T0 + ms).toISOString())
  async function changes(query: string) {
    const res = await call(changesRoute, `/api/runs/changes?${query}`)
    assert.equal(res.status, 200, JSON.stringify(res.body))
    return res.body
  }

  test('without since: no runs, a watermark a little behind the server clock', async () => {
    const before = Date.now()
    const body = await changes('org=live')
    assert.deepEqual(body.runs, [])
    const mark = Date.parse(body.since)
    assert.ok(mark <= Date.now() && mark >= before - 60_000, body.since)
  })

  test('exactly the runs written after since, newest first, each with its latest write', async () => {
    const body = await changes(`org=live&since=${since(MIN)}`)
    assert.deepEqual(columns(body.runs, 'runId', 'status', 'changedAt', 'inFilter'), [
      ['l3', 'unknown', new Date(T0 + 6 * MIN).toISOString(), true],
      ['l1', 'succeeded', new Date(T0 + 5 * MIN).toISOString(), true],
    ])
    assert.equal(body.truncated, false)
    // Before every write: all three runs; after the last one: none.
    assert.deepEqual(ids((await changes(`org=live&since=${since(-1)}`)).runs).sort(), ['l1', 'l2', 'l3'])
    assert.deepEqual((await changes(`org=live&since=${since(6 * MIN)}`)).runs, [])
    assert.deepEqual(ids((await changes(`org=live&since=${since(5 * MIN)}`)).runs), ['l3'])
  })

  test('the identity filters bound the scan; status and q only mark whether a run is in the filter', async () => {
    assert.deepEqual(ids((await changes(`org=live&agent=l-agent-2&since=${since(MIN)}`)).runs), ['l3'])
    assert.deepEqual((await changes(`org=acme&since=${since(MIN)}`)).runs, [])

    // A view of running runs still hears that l1 finished (it must drop off), marked out of the filter.
    const running = await changes(`org=live&status=running&since=${since(MIN)}`)
    assert.deepEqual(
      running.runs.map((r: { runId: string; inFilter: boolean }) => [r.runId, r.inFilter]),
      [
        ['l3', false],
        ['l1', false],
      ],
    )
    const ok = await changes(`org=live&status=succeeded&since=${since(MIN)}`)
    assert.deepEqual(
      ok.runs.map((r: { runId: string; inFilter: boolean }) => [r.runId, r.inFilter]),
      [
        ['l3', false],
        ['l1', true],
      ],
    )
    const text = await changes(`org=live&q=L3&since=${since(MIN)}`)
    assert.deepEqual(
      text.runs.map((r: { runId: string; inFilter: boolean }) => [r.runId, r.inFilter]),
      [
        ['l3', true],
        ['l1', false],
      ],
    )
    const range = await changes(`org=live&from=2026-11-26T00:00:00Z&since=${since(MIN)}`)
    assert.deepEqual(
      range.runs.map((r: { inFilter: boolean }) => r.inFilter),
      [false, false],
    )
  })

  test('a new write after the watermark shows up on the next poll', async () => {
    const first = await changes('org=live&agent=l-agent-1')
    await wmSet({ ...L1, blockKey: 'notes' }, 'late note', { actor: 'l', sourceTrace: 'h' })
    const next = await changes(`org=live&agent=l-agent-1&since=${encodeURIComponent(first.since)}`)
    assert.deepEqual(ids(next.runs), ['l1'])
    assert.equal(next.runs[0].status, 'succeeded')
  })

  for (const [query, field] of [
    ['since=soon', 'since'],
    ['since=2026-11-25T10:00:00Z&status=nope', 'status'],
  ] as const) {
    test(`400 naming ${field} for ${query}`, async () => {
      const res = await call(changesRoute, `/api/runs/changes?${query}`)
      assert.equal(res.status, 400)
      assert.equal(res.body.error.field, field)
      assert.match(res.body.error.message, new RegExp(field))
    })
  }
})
