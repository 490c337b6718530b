/**
 * On the demo data, every run's flags (from the run index) agree with what the run's own pages
 * say about it: the block detail's resume points, near misses, size and blob state of its
 * checkpoint, and the run row's attempt and status. A badge in the list is a sentence about the
 * run; this checks each one against the data the run page reads, run by run.
 */
import assert from 'node:assert/strict'
import { before, test } from 'node:test'
import type { RunSummary } from '../lib/api/types'
import { getBlockDetail } from '../lib/queries/block-detail'
import { runKeyText } from '../lib/loom/identity'
import { flagsOfPage, listRuns } from '../lib/queries/runs'
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
  const count = (f: string) => runs.filter((r) => r.flags.includes(f as never)).length
  for (const f of ['resumed', 'near_miss', 'near_limit', 'missing_blob', 'stalled']) assert.ok(count(f) >= 1, `some demo run is ${f}`)
  assert.ok(runs.filter((r) => r.flags.length === 0).length > runs.length / 2)
})

test("each run's flags match its checkpoint's block detail and its run row", async () => {
  for (const r of runs) {
    const name = `${r.org}/${r.namespace}/${r.agent}/${r.runId}`
    const cp = r.checkpoint
    const detail = cp
      ? await getBlockDetail({ org: r.org, namespace: r.namespace, agent: r.agent, runId: r.runId, userId: cp.userId ?? r.userId, sessionId: cp.sessionId ?? r.sessionId, blockKey: 'checkpoint' })
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
    assert.deepEqual(got, [...expect].sort((a, b) => order(a) - order(b)), name)
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
    assert.ok(bare.runs.every((r) => r.flags.length === 0), 'no flags before they are read')
    const byRun = await flagsOfPage(filter, bare.runs)
    assert.deepEqual(
      bare.runs.map((r) => byRun[runKeyText(r)]),
      whole.runs.map((r) => r.flags),
      JSON.stringify(filter),
    )
    assert.ok(whole.runs.some((r) => r.flags.length > 0) || filter.status === 'running', 'some run on the page has a flag')
  }
})
