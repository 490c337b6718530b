import { test } from 'node:test'
import assert from 'node:assert/strict'
import { trusted } from '../clickhouse/sql'
import { qMatchesOrphan, qMatchesRun } from './q'

const match = (expr: string) => `positionCaseInsensitiveUTF8(${expr}, {q:String}) > 0`

test('q on a run matches its goal, run_id or agent, with the text bound once', () => {
  const f = qMatchesRun('Invoice')
  assert.equal(f.sql, `(${match('goal')} OR ${match('run_id')} OR ${match('agent')})`)
  assert.deepEqual(f.params, { q: 'Invoice' })
})

test('q on a run can judge a goal held elsewhere (the latest version of an index row)', () => {
  const f = qMatchesRun("it's", trusted('tupleElement(latest, 3)'))
  assert.equal(f.sql, `(${match('tupleElement(latest, 3)')} OR ${match('run_id')} OR ${match('agent')})`)
  assert.deepEqual(f.params, { q: "it's" })
})

test('q on a checkpoint-only run matches its run_id or agent only', () => {
  const f = qMatchesOrphan('r-1')
  assert.equal(f.sql, `(${match('run_id')} OR ${match('agent')})`)
  assert.deepEqual(f.params, { q: 'r-1' })
})
