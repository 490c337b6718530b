/**
 * On the demo data, every run's flags (from the run index) agree with what the run's own pages
 * say about it: the block detail's resume points, near misses, size and blob state of its
 * checkpoint, and the run row's attempt and status. A badge in the list is a sentence about the
 * run; this checks each one against the data the run page reads, run by run.
 */
import assert from 'node:assert/strict'
import { before, test } from 'node:test'
import type { RunFlag, RunSummary } from '../lib/api/types'
import { getBlockDetail } from '../lib/queries/block-detail'
import { runKeyText } from '../lib/loom/identity'
import { getRunDetail } from '../lib/queries/run-detail'
import { flagsOfPage, listRuns } from '../lib/queries/runs'
import { invalidateReadCache } from '../lib/server/read-cache'
import { statementsSent } from './helpers/statements'
import { isResume } from '../lib/resume/detect'
import { ensureReady } from '../lib/server/ready'
import { useFreshEngine } from './helpers/engine'

useFreshEngine('run-flags-demo', { LOOM_RUNS_DEMO: '1' })

let runs: RunSummary[] = []

before(async () => {
  await ensureReady()
  const page = await listRuns({ filter: {}, limit: 200 })
  assert.equal(page.nextCursor, null, 'the demo fits one page of 200')
  runs = page.runs
})

test('the demo has a run for most flags, and most runs have none', () => {
  const count = (f: RunFlag) => runs.filter((r) => r.flags.includes(f)).length
  for (const f of ['resumed', 'near_miss', 'near_limit', 'missing_blob', 'stalled'] as const)
    assert.ok(count(f) >= 1, `some demo run is ${f}`)
  assert.ok(runs.filter((r) => r.flags.length === 0).length > runs.length / 2)
})

test("each run's flags match its checkpoint's block detail and its run row", async () => {
  for (const r of runs) {
    const name = `${r.org}/${r.namespace}/${r.agent}/${r.runId}`
    const cp = r.checkpoint
    const detail = cp
      ? await getBlockDetail({
          org: r.org,
          namespace: r.namespace,
          agent: r.agent,
          runId: r.runId,
          userId: cp.userId ?? r.userId,
          sessionId: cp.sessionId ?? r.sessionId,
          blockKey: 'checkpoint',
        })
      : null
    const expect = new Set<string>()
    if (r.attempt > 1 || detail?.resume.points.some(isResume)) expect.add('resumed')
    if (detail && detail.flags.nearMisses.length > 0) expect.add('near_miss')
    if (detail?.flags.nearLimit) expect.add('near_limit')
    // `tie` covers every block of the run; the checkpoint's ties must show at least.
    if (detail && detail.flags.ties.length > 0) assert.ok(r.flags.includes('tie'), `${name}: checkpoint ties`)
    if (detail?.flags.blob?.state === 'missing') expect.add('missing_blob')
    if (r.attempt >= 3 && r.status !== 'succeeded') expect.add('crash_loop')
    // Stalls depend on the clock: only a running run can be one, and every running demo run that
    // stopped writing long ago (the demo's clock ended hours before now) is.
    const stalled = r.flags.includes('stalled')
    if (stalled) assert.equal(r.status, 'running', `${name}: only a running run is stalled`)
    const got = r.flags.filter((f) => f !== 'stalled' && f !== 'tie')
    assert.deepEqual(
      got,
      [...expect].sort((a, b) => order(a) - order(b)),
      name,
    )
  }
})

test("each run's header decides the same flags as the list, in its one statement", async () => {
  for (const r of runs) {
    // Nothing kept: the header's own statement carries what decides the flags.
    invalidateReadCache()
    const { result, sent } = await statementsSent(() =>
      getRunDetail({ org: r.org, namespace: r.namespace, agent: r.agent, runId: r.runId }),
    )
    assert.deepEqual(result.run.flags, r.flags, `${r.org}/${r.namespace}/${r.agent}/${r.runId}`)
    assert.ok(sent.length <= 2, `${r.runId}: ${sent.length} statements`)
  }
})

function order(f: string) {
  return ['resumed', 'near_miss', 'near_limit', 'tie', 'missing_blob', 'crash_loop', 'stalled'].indexOf(f)
}

test('a page read without flags and its flags read afterwards (the runs page streams them) give the same flags as the list', async () => {
  for (const filter of [{}, { flag: ['resumed' as const] }, { status: 'running' as const }]) {
    const whole = await listRuns({ filter, limit: 50 })
    const bare = await listRuns({ filter, limit: 50, flags: false })
    assert.deepEqual(
      bare.runs.map((r) => r.runId),
      whole.runs.map((r) => r.runId),
      'the same runs, in the same order',
    )
    assert.ok(
      bare.runs.every((r) => r.flags.length === 0),
      'no flags before they are read',
    )
    const byRun = await flagsOfPage(filter, bare.runs)
    assert.deepEqual(
      bare.runs.map((r) => byRun[runKeyText(r)]),
      whole.runs.map((r) => r.flags),
      JSON.stringify(filter),
    )
    assert.ok(
      whole.runs.some((r) => r.flags.length > 0) || filter.status === 'running',
      'some run on the page has a flag',
    )
  }
})

test('cohorts: every run with a problem flag, once, grouped by agent, status and flags; largest first; links list exactly the cohort', async () => {
  const { GET } = await import('../app/api/runs/cohorts/route')
  const { assertRefused, call } = await import('./helpers/routes')
  const res = await call(GET, '/api/runs/cohorts')
  assert.equal(res.status, 200, JSON.stringify(res.body))
  ;(await import('../lib/endpoints/runs')).cohortsResponse.parse(res.body)
  type C = {
    key: string
    agent: string
    org: string
    namespace: string
    status: string
    flags: string[]
    runs: number
    firstAt: string
    lastAt: string
    sample: string[]
    href: string
  }
  const cohorts = res.body.cohorts as C[]
  // Computed here from the whole list, independently of the route.
  const problems = ['near_miss', 'near_limit', 'tie', 'missing_blob', 'crash_loop', 'stalled']
  const expected = new Map<string, string[]>()
  for (const r of runs) {
    const flags = r.flags.filter((f) => problems.includes(f))
    if (!flags.length) continue
    const k = JSON.stringify([r.org, r.namespace, r.agent, r.status, flags])
    expected.set(k, [...(expected.get(k) ?? []), r.runId])
  }
  assert.ok(expected.size >= 2, 'the demo has troubled runs in more than one cohort')
  assert.deepEqual(
    new Map(cohorts.map((c) => [c.key, c.runs])),
    new Map([...expected].map(([k, ids]) => [k, ids.length])),
  )
  for (let i = 1; i < cohorts.length; i++) assert.ok(cohorts[i - 1].runs >= cohorts[i].runs, 'largest first')
  // Whole: the same starts, samples (newest first) and links as grouping the whole list gives.
  const { groupCohorts } = await import('../lib/cohorts/group')
  assert.deepEqual(cohorts, groupCohorts(runs))
  // A flag filter keeps the runs carrying every named flag, resumed included (not a problem flag itself).
  const flagSets: RunFlag[][] = [['resumed'], ['near_miss'], ['resumed', 'crash_loop']]
  for (const flag of flagSets) {
    const qs = flag.map((f) => `flag=${f}`).join('&')
    const filtered = await call(GET, `/api/runs/cohorts?${qs}`)
    const carrying = runs.filter((r) => flag.every((f) => r.flags.includes(f)))
    assert.deepEqual(filtered.body.cohorts, groupCohorts(carrying, { flag }), qs)
  }
  // A search (which the triage table cannot judge) groups flag-filtered list pages: the same cohorts for the runs it matches.
  const q = runs.find((r) => r.flags.includes('near_limit'))!.runId
  const searched = await call(GET, `/api/runs/cohorts?q=${encodeURIComponent(q)}`)
  const matching = (await listRuns({ filter: { q }, limit: 200 })).runs
  assert.ok(matching.length >= 1)
  assert.deepEqual(searched.body.cohorts, groupCohorts(matching, { q }))
  for (const c of cohorts) {
    assert.ok(c.sample.length === Math.min(5, c.runs))
    assert.ok(c.firstAt <= c.lastAt)
    // The link's list holds every run of the cohort (it may hold runs with more flags too).
    const url = new URL(c.href, 'http://x')
    assert.equal(url.searchParams.get('agent'), c.agent)
    assert.equal(url.searchParams.get('status'), c.status)
    const listed = await listRuns({
      filter: { org: c.org, namespace: c.namespace, agent: c.agent, status: c.status as never, flag: c.flags as never },
      limit: 200,
    })
    const ids = new Set(listed.runs.map((r) => r.runId))
    for (const id of expected.get(c.key)!) assert.ok(ids.has(id), `${c.href} lists ${id}`)
  }
  // Narrowed by the list's filter: one agent's cohorts only.
  const one = cohorts[0]
  const narrowed = await call(GET, `/api/runs/cohorts?agent=${encodeURIComponent(one.agent)}`)
  assert.ok(narrowed.body.cohorts.every((c: C) => c.agent === one.agent))
  assert.equal(narrowed.body.cohorts.find((c: C) => c.key === one.key)?.runs, one.runs)
  const limited = await call(GET, '/api/runs/cohorts?limit=1')
  assert.deepEqual([limited.body.cohorts, limited.body.total], [cohorts.slice(0, 1), cohorts.length])
  assertRefused(await call(GET, '/api/runs/cohorts?limit=0'), 'limit')
  assertRefused(await call(GET, '/api/runs/cohorts?status=nope'), 'status')
})
