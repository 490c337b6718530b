import assert from 'node:assert/strict'
import { before, describe, test } from 'node:test'
import { activeTime } from '../lib/queries/active-time'
import { runBegin, runComplete } from '../lib/loom/runs'
import { wmSet } from '../lib/loom/working-memory'
import { runsAnalytics } from '../lib/queries/analytics'
import { ensureReady } from '../lib/server/ready'
import { useFreshEngine } from './helpers/engine'

useFreshEngine('slowest-active')

const MIN = 60_000
const HOUR = 60 * MIN
const DAY = 24 * HOUR
const T0 = Date.parse('2026-11-10T08:00:00.000Z')
const at = (ms: number) => () => new Date(T0 + ms)
const who = (runId: string) => ({ org: 'acme', namespace: 'batch', agent: 'worker', userId: '', sessionId: '', runId })

describe('activeTime (pure)', () => {
  /** A first attempt that started at 0 and has not completed, unless `over` says otherwise. */
  const timing = (over: Partial<Parameters<typeof activeTime>[0]> = {}): Parameters<typeof activeTime>[0] => ({
    startedAt: 0,
    lastBeginAt: 0,
    completedAt: null,
    durationMs: null,
    attempt: 1,
    lastWriteBeforeResume: null,
    ...over,
  })
  test('a run that never resumed is active for its whole duration', () => {
    assert.deepEqual(activeTime(timing({ completedAt: HOUR, durationMs: HOUR })), {
      durationMs: HOUR,
      activeMs: HOUR,
      idleMs: 0,
      idleKnown: 'all',
    })
  })

  test('a resumed run is idle from its last write before the resume to the resume', () => {
    const r = activeTime(
      timing({ lastBeginAt: 4 * DAY, completedAt: 4 * DAY + 10 * MIN, attempt: 2, lastWriteBeforeResume: 5 * MIN }),
    )
    assert.deepEqual(r, {
      durationMs: 4 * DAY + 10 * MIN,
      activeMs: 15 * MIN,
      idleMs: 4 * DAY - 5 * MIN,
      idleKnown: 'all',
    })
  })

  test('without a stored write before the resume, idle is unknown and active is the duration', () => {
    const r = activeTime(timing({ lastBeginAt: DAY, completedAt: DAY + MIN, durationMs: DAY + MIN, attempt: 2 }))
    assert.deepEqual(r, { durationMs: DAY + MIN, activeMs: DAY + MIN, idleMs: null, idleKnown: 'none' })
  })

  test('no duration, no figures', () => {
    assert.equal(activeTime(timing()), null)
  })
})

describe('slowest runs rank by active time', () => {
  before(async () => {
    await ensureReady()
    const cp = (runId: string, content: string, ms: number, trace: string, actor = 'worker') =>
      wmSet({ ...who(runId), blockKey: 'checkpoint' }, content, { actor, sourceTrace: trace, now: at(ms) })

    // Busy for two hours without a break.
    await runBegin({ ...who('steady'), goal: 'Steady two hours' }, at(0))
    await cp('steady', 'item-1', HOUR, 'h-a/1')
    await runComplete({ ...who('steady'), status: 'succeeded' }, at(2 * HOUR))

    // Works 20 minutes, crashes, sits dead 4d 22h (an operator looks at it meanwhile), resumes, works 10 minutes.
    await runBegin({ ...who('crashed'), goal: 'Crashed and resumed' }, at(0))
    await cp('crashed', 'item-1', 10 * MIN, 'h-a/2')
    await cp('crashed', 'item-1 item-2', 20 * MIN, 'h-a/2')
    await cp('crashed', 'item-1 item-2', 2 * DAY, 'console', 'operator:alice')
    const resume = 20 * MIN + 4 * DAY + 22 * HOUR
    await runBegin({ ...who('crashed'), goal: '' }, at(resume))
    await cp('crashed', 'item-1 item-2 item-3', resume + 5 * MIN, 'h-b/3')
    await runComplete({ ...who('crashed'), status: 'succeeded' }, at(resume + 10 * MIN))
  })

  test('the run that sat idle for days is not the slowest; its active and idle times are apart', async () => {
    const a = await runsAnalytics({ org: 'acme' })
    assert.deepEqual(
      a.slowest.map((r) => r.runId),
      ['steady', 'crashed'],
    )
    const [steady, crashed] = a.slowest
    assert.deepEqual([steady.activeMs, steady.idleMs], [2 * HOUR, 0])
    assert.equal(crashed.durationMs, 4 * DAY + 22 * HOUR + 30 * MIN)
    assert.equal(crashed.activeMs, 30 * MIN, '20 minutes before the crash, 10 after the resume')
    assert.equal(crashed.idleMs, 4 * DAY + 22 * HOUR, 'the operator edit while it sat dead is not activity')
    assert.equal(crashed.idleKnown, 'all')
  })
})
