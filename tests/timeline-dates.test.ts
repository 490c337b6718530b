import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { clockLabel, crossesDay, prepare, rowTime } from '../components/story/timeline-model'
import { checkpointEvent } from './helpers/timeline-events'

const event = (at: string, i: number) => checkpointEvent(String(i + 1), at)

describe('timeline times say the date when the run crosses a day', () => {
  test('a run from one evening to the next morning shows dates in its rows', () => {
    const p = prepare([event('2026-11-20T22:15:00.000Z', 0), event('2026-11-21T01:05:00.250Z', 1)])
    assert.equal(p.multiDay, true)
    assert.equal(rowTime(p.events[0].at, p.multiDay), '20 Nov 22:15:00.000')
    assert.equal(rowTime(p.events[1].at, p.multiDay), '21 Nov 01:05:00.250')
  })

  test('a run within one day keeps times of day only', () => {
    const p = prepare([event('2026-11-20T08:00:00.000Z', 0), event('2026-11-20T23:59:59.999Z', 1)])
    assert.equal(p.multiDay, false)
    assert.equal(rowTime(p.events[1].at, p.multiDay), '23:59:59.999')
  })

  test('axis labels carry the date when the visible range crosses midnight, however short', () => {
    const a = Date.parse('2026-11-20T23:30:00.000Z')
    const b = Date.parse('2026-11-21T00:30:00.000Z')
    assert.equal(crossesDay(a, b), true)
    assert.equal(clockLabel(b, b - a, crossesDay(a, b)), '21 Nov, 00:30')
    assert.equal(clockLabel(a, 60_000, crossesDay(a, a + 60_000)), '23:30:00')
  })
})
