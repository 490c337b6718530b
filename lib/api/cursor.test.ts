import { test } from 'node:test'
import assert from 'node:assert/strict'
import { decodeCursor, encodeCursor } from './cursor'

const cursor = {
  startedAt: '2026-11-19 08:30:00.125',
  org: 'acme',
  namespace: 'prod',
  agent: 'billing/αβ',
  runId: 'run "1"',
}

test('a cursor decodes to the keyset tuple it was made from', () => {
  const text = encodeCursor(cursor)
  assert.match(text, /^[A-Za-z0-9_-]+$/)
  assert.deepEqual(decodeCursor(text), cursor)
})

test('text this server did not issue is no cursor', () => {
  const encode = (v: unknown) => Buffer.from(JSON.stringify(v), 'utf8').toString('base64url')
  assert.equal(decodeCursor(''), null)
  assert.equal(decodeCursor('not base64!'), null)
  assert.equal(decodeCursor(Buffer.from('{not json', 'utf8').toString('base64url')), null)
  assert.equal(decodeCursor(encode([2, cursor.startedAt, 'a', 'b', 'c', 'd'])), null, 'another version')
  assert.equal(decodeCursor(encode([1, '2026-11-19T08:30:00Z', 'a', 'b', 'c', 'd'])), null, 'not ClickHouse time text')
  assert.equal(decodeCursor(encode([1, cursor.startedAt, 'a', 'b', 'c'])), null, 'a field short')
  assert.equal(decodeCursor('A'.repeat(8193)), null, 'too long')
})
