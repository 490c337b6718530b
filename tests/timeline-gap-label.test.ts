import assert from 'node:assert/strict'
import { test } from 'node:test'
import { buildTimeAxis } from '../components/story/timeline-model'

test('a compressed idle gap on the timeline says it measures events, not checkpoint writes', () => {
  const t = [0, 1_000, 2_000, 3_000, 3_000 + 10 * 60_000 + 28_000, 3_000 + 10 * 60_000 + 29_000]
  const axis = buildTimeAxis(t, true)
  assert.equal(axis.gaps.length, 1)
  assert.equal(axis.gaps[0].ms, 628_000)
  assert.equal(axis.gaps[0].label, 'no events for 10m 28s')
})
