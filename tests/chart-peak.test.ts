import assert from 'node:assert/strict'
import { test } from 'node:test'
import { peaks, peakSentence } from '../components/runs/chart-peak'

const days = { lead: 'Most on', unit: 'day', units: 'days' }

test('a chart summary names its one peak, tells a tie as a tie, and says nothing when every bar is empty', () => {
  const rows = [
    { d: '26 Nov', n: 0 },
    { d: '27 Nov', n: 1 },
    { d: '28 Nov', n: 3 },
  ]
  assert.equal(
    peakSentence(
      peaks(rows, (r) => r.n).map((r) => r.d),
      '3 runs',
      days,
    ),
    'Most on 28 Nov: 3 runs.',
  )
  const tied = [
    { d: '27 Nov', n: 1 },
    { d: '28 Nov', n: 0 },
    { d: '29 Nov', n: 1 },
  ]
  assert.deepEqual(
    peaks(tied, (r) => r.n).map((r) => r.d),
    ['27 Nov', '29 Nov'],
  )
  assert.equal(peakSentence(['27 Nov', '29 Nov'], '1 run', days), 'Most on 27 Nov and 29 Nov: 1 run each.')
  assert.equal(peakSentence(['27 Nov', '28 Nov', '29 Nov', '30 Nov'], '1 run', days), 'At most 1 run a day, on 4 days.')
  assert.deepEqual(
    peaks([{ n: 0 }, { n: 0 }], (r) => r.n),
    [],
  )
  assert.equal(peakSentence([], '0 runs', days), '')
})
