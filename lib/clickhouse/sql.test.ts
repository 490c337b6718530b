import { test } from 'node:test'
import assert from 'node:assert/strict'
import { and, join, param, sql, trusted } from './sql'

test('a placeholder carries its value, and composed fragments carry all of theirs', () => {
  const scope = and([sql`org = ${param('org', 'String', 'acme')}`, sql`run_id = ${param('run_id', 'String', 'r-1')}`])
  const q = sql`SELECT count() FROM ${trusted('loom.runs')} WHERE ${scope} LIMIT ${param('limit', 'UInt32', 5)}`
  assert.equal(
    q.sql,
    'SELECT count() FROM loom.runs WHERE (org = {org:String}) AND (run_id = {run_id:String}) LIMIT {limit:UInt32}',
  )
  assert.deepEqual(q.params, { org: 'acme', run_id: 'r-1', limit: 5 })
})

test('one name bound to two different values is refused; the same value twice is one binding', () => {
  const a = sql`org = ${param('org', 'String', 'acme')}`
  assert.deepEqual(join([a, a], ' OR ').params, { org: 'acme' })
  assert.throws(() => join([a, sql`org = ${param('org', 'String', 'other')}`], ' OR '), /bound twice/)
  const d1 = param('at', 'DateTime64(3)', new Date(0))
  assert.deepEqual(join([d1, param('at', 'DateTime64(3)', new Date(0))], ',').params, { at: new Date(0) })
})

test('a plain string cannot be spliced in, and a parameter needs a name and a value', () => {
  // @ts-expect-error: only fragments may be interpolated
  assert.throws(() => sql`WHERE org = '${'x'}'`, /Only SQL fragments/)
  assert.throws(() => param('bad name', 'String', 'x'), /Not a parameter name/)
  // @ts-expect-error: undefined is not a value
  assert.throws(() => param('org', 'String', undefined), /has no value/)
  assert.equal(and([]).sql, '1')
})

test('the block scope binds the whole working-memory key', async () => {
  const { blockScope } = await import('../loom/scope')
  const s = blockScope({
    org: 'o',
    namespace: 'n',
    agent: 'a',
    userId: '',
    sessionId: 's',
    runId: 'r',
    blockKey: 'checkpoint',
  })
  assert.deepEqual(s.params, {
    org: 'o',
    namespace: 'n',
    agent: 'a',
    user_id: '',
    session_id: 's',
    run_id: 'r',
    block_key: 'checkpoint',
  })
  assert.match(s.sql, /^\(\(org = \{org:String\}\).*\(block_key = \{block_key:String\}\)$/)
})
