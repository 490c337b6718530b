import assert from 'node:assert/strict'
import { before, describe, test } from 'node:test'
import { useFreshEngine } from './helpers/engine'
import { call } from './helpers/routes'
import * as wm from '../lib/loom/working-memory'
import { runBegin, runComplete } from '../lib/loom/runs'
import { ensureReady } from '../lib/server/ready'
import * as contract from '../lib/endpoints/runs'
import { GET } from '../app/api/compare/route'
import { clearBlock, restoreBlock } from '../lib/operator/writes'
import { compareRuns, sideAlone } from '../lib/queries/compare'
import type { RunRef } from '../lib/loom/identity'
import { statementsSent } from './helpers/statements'
import { uninstallConsole } from '../lib/derived/install'

useFreshEngine('compare')

const ORG = 'cmp'
const NS = 'ns'
const AGENT = 'indexer'
const hoursAgo = (h: number) => new Date(Math.floor(Date.now() / 3_600_000) * 3_600_000 - h * 3_600_000)
const at =
  (d: Date, minutes = 0) =>
  () =>
    new Date(d.getTime() + minutes * 60_000)
const ident = { org: ORG, namespace: NS, agent: AGENT, userId: '', sessionId: '' }
const ref = (runId: string) => ({ ...ident, runId, blockKey: 'checkpoint' })
const key = (runId: string, agent = AGENT) =>
  encodeURIComponent([ORG, NS, agent, runId].map(encodeURIComponent).join('/'))
const get = (qs: string) => call(GET, `/api/compare?${qs}`)

/** A run: begins at `start`, writes the checkpoints one minute apart, then ends with `status`. */
async function run(
  runId: string,
  start: Date,
  checkpoints: string[],
  status: 'succeeded' | 'failed',
  resumeAfter?: number,
) {
  await runBegin({ ...ident, runId, goal: `goal of ${runId}` }, at(start))
  for (const [i, content] of checkpoints.entries()) {
    // A second process picks the run up before the write after `resumeAfter`.
    if (resumeAfter !== undefined && i === resumeAfter)
      await runBegin({ ...ident, runId, goal: `goal of ${runId}` }, at(start, i + 0.5))
    await wm.wmSet(ref(runId), content, {
      actor: AGENT,
      sourceTrace: `host/pid-${resumeAfter !== undefined && i >= resumeAfter ? 2 : 1}`,
      now: at(start, i + 1),
    })
  }
  await runComplete({ org: ORG, namespace: NS, agent: AGENT, runId, status }, at(start, checkpoints.length + 1))
}

before(async () => {
  await ensureReady()
  await run('s1', hoursAgo(10), ['a'], 'succeeded')
  await run('s2', hoursAgo(8), ['a', 'a b', 'a b c'], 'succeeded')
  await run('f3', hoursAgo(6), ['a', 'a b'], 'failed', 1)
  await run('s4', hoursAgo(4), ['a', 'a b', 'a b c'], 'succeeded')
})

test("b omitted: the same agent's last succeeded run that started before a", async () => {
  const res = await get(`a=${key('f3')}`)
  assert.equal(res.status, 200, JSON.stringify(res.body))
  contract.compareResponse.parse(res.body)
  assert.equal(res.body.a.run.runId, 'f3')
  assert.equal(res.body.b.run.runId, 's2')
  assert.equal(res.body.why, undefined)
  // Each side's checkpoint versions, oldest first, with their sizes.
  assert.deepEqual(
    res.body.a.checkpoints.map((c: { version: string; chars: number }) => [c.version, c.chars]),
    [
      ['1', 1],
      ['2', 3],
    ],
  )
  assert.deepEqual(
    res.body.b.checkpoints.map((c: { version: string; chars: number }) => [c.version, c.chars]),
    [
      ['1', 1],
      ['2', 3],
      ['3', 5],
    ],
  )
  // f3 was picked up by a second process after its first version; s2 never was.
  assert.equal(res.body.a.resumes.length, 1)
  assert.equal(res.body.a.resumes[0].fromVersion, '1')
  assert.equal(res.body.b.resumes.length, 0)
  assert.equal(res.body.a.run.attempt, 2)
  assert.deepEqual([res.body.a.current.content, res.body.b.current.content], ['a b', 'a b c'])
})

test('two named runs; no earlier success: b is null with why', async () => {
  const named = await get(`a=${key('s4')}&b=${key('s1')}`)
  assert.equal(named.status, 200)
  assert.deepEqual([named.body.a.run.runId, named.body.b.run.runId], ['s4', 's1'])
  const first = await get(`a=${key('s1')}`)
  assert.equal(first.status, 200)
  assert.equal(first.body.b, null)
  assert.match(first.body.why, /indexer has no succeeded run that started before this one/)
})

test('an unknown run is a 404; a malformed one a 400 naming the field', async () => {
  const missing = await get(`a=${key('nope')}`)
  assert.equal(missing.status, 404)
  const missingB = await get(`a=${key('f3')}&b=${key('nope', 'other')}`)
  assert.equal(missingB.status, 404)
  const bad = await get('a=cmp/ns/indexer')
  assert.equal(bad.status, 400)
  assert.equal(bad.body.error.field, 'a')
  const badB = await get(`a=${key('f3')}&b=${encodeURIComponent('a//b/c')}`)
  assert.equal(badB.status, 400)
  assert.equal(badB.body.error.field, 'b')
  const none = await call(GET, '/api/compare')
  assert.equal(none.status, 400)
  assert.equal(none.body.error.field, 'a')
})

test("each side says what the run's own pages say: its header, and its checkpoint's versions, resume points and content as the block detail reads them", async () => {
  const { getRunDetail } = await import('../lib/queries/run-detail')
  const { getBlockDetail } = await import('../lib/queries/block-detail')
  const { isResume } = await import('../lib/resume/detect')
  const res = await get(`a=${key('f3')}&b=${key('s2')}`)
  assert.equal(res.status, 200)
  for (const [side, runId] of [
    [res.body.a, 'f3'],
    [res.body.b, 's2'],
  ] as const) {
    const detail = await getRunDetail({ org: ORG, namespace: NS, agent: AGENT, runId })
    assert.deepEqual(side.run, detail.run)
    const block = await getBlockDetail(ref(runId))
    const versions = new Map([...(block.history ?? []), ...block.versions].map((v) => [v.version, v.chars]))
    assert.deepEqual(
      new Map(side.checkpoints.map((c: { version: string; chars: number }) => [c.version, c.chars])),
      versions,
    )
    assert.deepEqual(side.resumes, block.resume.points.filter(isResume))
    assert.equal(side.current.content, block.block!.content)
  }
})

test('b omitted: a run that succeeded and was begun again since is no longer a success (its latest row decides)', async () => {
  // s4 succeeded; a new begin turns its latest row back to running.
  await runBegin({ ...ident, runId: 's4', goal: 'goal of s4' }, at(hoursAgo(1)))
  const later = hoursAgo(0.5)
  await run('f5', later, ['a'], 'failed')
  const res = await get(`a=${key('f5')}`)
  assert.equal(res.status, 200)
  assert.equal(res.body.a.run.runId, 'f5')
  assert.equal(res.body.b.run.runId, 's2', 's4 is running again: the last success before f5 is s2')
})

describe('both runs read together', () => {
  /** A checkpoint-only run under two sessions, the same run_id under another agent, and a run an operator cleared and restored. */
  const CRAWLER = { org: ORG, namespace: NS, agent: 'crawler' }
  const TWIN = { ...CRAWLER, agent: 'crawler-twin' }
  const CLEANER = { org: ORG, namespace: NS, agent: 'cleaner', userId: 'u7', sessionId: 's7' }
  const writer = (agent: string, pid: number, minutes: number, start = hoursAgo(3)) => ({
    actor: agent,
    sourceTrace: `host/pid-${pid}`,
    now: at(start, minutes),
  })
  const runRef = (r: { org: string; namespace: string; agent: string }, runId: string) => ({
    org: r.org,
    namespace: r.namespace,
    agent: r.agent,
    runId,
  })

  before(async () => {
    const block = (who: typeof CRAWLER, userId: string, sessionId: string) => ({
      ...who,
      userId,
      sessionId,
      runId: 'cp-1',
      blockKey: 'checkpoint',
    })
    // Session s2 starts, s1 (and the twin agent) go further, then a new process resumes s2 from its own first page.
    await wm.wmSet(block(CRAWLER, 'u1', 's2'), 'page 1', writer('crawler', 2, 0.5))
    await wm.wmSet(block(CRAWLER, 'u1', 's1'), 'page 1', writer('crawler', 1, 1))
    await wm.wmSet(block(CRAWLER, 'u1', 's1'), 'page 1 2', writer('crawler', 1, 2))
    await wm.wmSet(block(TWIN, 'u1', 's1'), 'twin page', writer('crawler-twin', 3, 5))
    await wm.wmSet(block(CRAWLER, 'u1', 's2'), 'page 1 2 3', writer('crawler', 4, 30))
    for (const [runId, start] of [
      ['c1', hoursAgo(9)],
      ['c2', hoursAgo(7)],
    ] as const) {
      const ref = { ...CLEANER, runId, blockKey: 'checkpoint' }
      await runBegin({ ...CLEANER, runId, goal: `clean ${runId}` }, at(start))
      await wm.wmSet(ref, 'one', writer('cleaner', 1, 1, start))
      await wm.wmSet(ref, 'one two', writer('cleaner', 1, 2, start))
      await runComplete({ ...runRef(CLEANER, runId), status: runId === 'c1' ? 'succeeded' : 'failed' }, at(start, 3))
    }
    // A checkpoint-only run of the same agent, after both: when it started is its first write.
    await wm.wmSet({ ...CLEANER, runId: 'c3', blockKey: 'checkpoint' }, 'one', writer('cleaner', 5, 0, hoursAgo(5)))
    const c2 = { ...CLEANER, runId: 'c2', blockKey: 'checkpoint' }
    const op = { ref: c2, operator: 'ops', reason: 'test', force: true }
    await clearBlock({ ...op, expectedVersion: '2' })
    await restoreBlock({ ...op, expectedVersion: '3', version: '1' })
    await clearBlock({ ...op, expectedVersion: '4' })
  })

  test('each side, read together with the other, is what reading it alone says', async () => {
    const pairs: [RunRef, RunRef | undefined][] = [
      [runRef({ org: ORG, namespace: NS, agent: AGENT }, 'f3'), undefined],
      [runRef({ org: ORG, namespace: NS, agent: AGENT }, 'f3'), runRef(CRAWLER, 'cp-1')],
      [runRef(CRAWLER, 'cp-1'), runRef(TWIN, 'cp-1')],
      [runRef(CLEANER, 'c2'), undefined],
      [runRef(CLEANER, 'c2'), runRef(CLEANER, 'c2')],
      [runRef(CLEANER, 'c3'), undefined],
    ]
    for (const [a, b] of pairs) {
      const what = `${a.agent}/${a.runId} against ${b ? `${b.agent}/${b.runId}` : 'its last success'}`
      const both = await compareRuns(a, b)
      assert.deepEqual(both.a, await sideAlone(a), what)
      assert.ok(both.b, what)
      assert.deepEqual(both.b, await sideAlone(runRef(both.b.run, both.b.run.runId)), what)
    }
    // What the pairs above cover: a checkpoint-only run (its newest session's checkpoint), the same
    // run_id under another agent and session, and a checkpoint an operator cleared, restored and cleared again.
    const cp = await compareRuns(runRef(CRAWLER, 'cp-1'), runRef(TWIN, 'cp-1'))
    assert.equal(cp.a.run.hasRunRow, false)
    assert.deepEqual([cp.a.run.sessionId, cp.a.current?.content], ['s2', 'page 1 2 3'])
    assert.deepEqual(cp.a.run.flags, ['resumed', 'near_miss'])
    assert.deepEqual(
      cp.a.resumes.map((p) => [p.fromVersion, p.missed?.agent]),
      [['1', 'crawler-twin']],
      'the resume read its own first page while the twin had written a newer one',
    )
    assert.equal((await compareRuns(runRef(CLEANER, 'c3'), undefined)).b?.run.runId, 'c1')
    const cleaned = await compareRuns(runRef(CLEANER, 'c2'), undefined)
    assert.equal(cleaned.b?.run.runId, 'c1')
    assert.deepEqual(
      [cleaned.a.current?.isDeleted, cleaned.a.checkpoints.map((c) => c.version)],
      [true, ['1', '2', '3', '4', '5']],
    )
  })

  test("both sides' headers in one statement and their checkpoints' stories in one more; one more finds b when it is omitted", async () => {
    const a = runRef({ org: ORG, namespace: NS, agent: AGENT }, 'f3')
    const b = runRef({ org: ORG, namespace: NS, agent: AGENT }, 's2')
    // Once first, so what is kept a minute (which tables exist) is not counted.
    await compareRuns(a, b)
    const named = await statementsSent(() => compareRuns(a, b))
    assert.equal(named.sent.length, 2, named.sent.join('\n\n'))
    const omitted = await statementsSent(() => compareRuns(a, undefined))
    assert.equal(omitted.result.b?.run.runId, 's2')
    assert.equal(omitted.sent.length, 3, omitted.sent.join('\n\n'))
  })
  test('without the run index and the history capture, each side is still what reading it alone says', async () => {
    // Last: it removes the console's own structures (Loom's tables stay), so both reads fall back to the key prefixes.
    await uninstallConsole()
    for (const [a, b] of [
      [runRef(CRAWLER, 'cp-1'), runRef(TWIN, 'cp-1')],
      [runRef(CLEANER, 'c3'), undefined],
    ] as const) {
      const both = await compareRuns(a, b)
      assert.deepEqual(both.a, await sideAlone(a))
      assert.ok(both.b)
      assert.deepEqual(both.b, await sideAlone(runRef(both.b.run, both.b.run.runId)))
    }
  })
})
