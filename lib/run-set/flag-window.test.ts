import assert from 'node:assert/strict'
import { test } from 'node:test'
import { nextFlagWindow } from './flag-window'

test('a flag scan sizes its next window by the share of matches so far', () => {
  // 42 of 500 rows matched and 8 are missing: about 8 × 500 / 42 rows more, with a margin.
  assert.equal(nextFlagWindow(500, 8, 42, 500), 136)
  // None matched yet: four times the last window, up to the largest.
  assert.equal(nextFlagWindow(500, 50, 0, 500), 2000)
  assert.equal(nextFlagWindow(2000, 50, 0, 2500), 2000)
  // Rare matches: never more than four times the last window.
  assert.equal(nextFlagWindow(118, 49, 1, 118), 472)
  // Never below a few rows.
  assert.equal(nextFlagWindow(500, 1, 499, 500), 18)
})
