import assert from 'node:assert/strict'
import { test } from 'node:test'
import { omit, pick } from './object'

test('pick keeps the named fields in the order named, a missing one as undefined, and nothing else', () => {
  const body: { a: number; b: string; c?: boolean; d: null } = { d: null, b: 'x', a: 1 }
  const picked = pick(body, ['a', 'c', 'b'])
  assert.deepEqual(Object.entries(picked), [
    ['a', 1],
    ['c', undefined],
    ['b', 'x'],
  ])
})

test('omit drops the named fields and keeps the rest in their order', () => {
  const detail = { id: 'b1', at: 't', items: [1, 2], reason: 'r' }
  assert.deepEqual(Object.entries(omit(detail, ['items'])), [
    ['id', 'b1'],
    ['at', 't'],
    ['reason', 'r'],
  ])
})
