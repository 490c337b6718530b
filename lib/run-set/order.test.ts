import { test } from 'node:test'
import assert from 'node:assert/strict'
import { cursorOfKey, keyOfCursor, keysetAfter } from './order'

const cursor = { startedAt: '2026-11-19 08:30:00.125', org: 'acme', namespace: 'prod', agent: 'billing', runId: 'r-1' }

test('a cursor and a list key are the same place in the list order', () => {
  const key = keyOfCursor(cursor)
  assert.deepEqual(key, {
    started_text: cursor.startedAt,
    org: 'acme',
    namespace: 'prod',
    agent: 'billing',
    run_id: 'r-1',
  })
  assert.deepEqual(cursorOfKey(key), cursor)
})

test('the keyset condition compares the whole order tuple and carries every value', () => {
  const f = keysetAfter(keyOfCursor(cursor))
  assert.equal(
    f.sql,
    "(started_at, org, namespace, agent, run_id) < ({c_started:DateTime64(3, 'UTC')}, {c_org:String}, {c_namespace:String}, {c_agent:String}, {c_run_id:String})",
  )
  assert.deepEqual(f.params, {
    c_started: cursor.startedAt,
    c_org: 'acme',
    c_namespace: 'prod',
    c_agent: 'billing',
    c_run_id: 'r-1',
  })
})
