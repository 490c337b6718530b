import assert from 'node:assert/strict'
import { before, test } from 'node:test'
import { useFreshEngine } from './helpers/engine'
import { call } from './helpers/routes'
import * as wm from '../lib/loom/working-memory'
import { runBegin, runComplete } from '../lib/loom/runs'
import { deriveNow } from '../lib/derived/derive'
import { ensureReady } from '../lib/server/ready'
import { GET } from '../app/api/runs/[org]/[namespace]/[agent]/[runId]/incident.md/route'
import { PUT as edit } from '../app/api/runs/[org]/[namespace]/[agent]/[runId]/blocks/[blockKey]/route'

useFreshEngine('incident')

const ident = { org: 'inc', namespace: 'ns', agent: 'importer', userId: '', sessionId: '' }
const params = { org: 'inc', namespace: 'ns', agent: 'importer', runId: 'loop-1' }
const ref = { ...ident, runId: 'loop-1', blockKey: 'checkpoint' }
const hoursAgo = (h: number) => new Date(Math.floor(Date.now() / 3_600_000) * 3_600_000 - h * 3_600_000)
const T0 = hoursAgo(5)
const at = (minutes: number) => () => new Date(T0.getTime() + minutes * 60_000)
const write = (content: string, minutes: number, pid: number) =>
  wm.wmSet(ref, content, { actor: 'importer', sourceTrace: `host/pid-${pid}`, now: at(minutes) })
const get = () => call(GET, '/api/runs/inc/ns/importer/loop-1/incident.md', params)

let text = ''

before(async () => {
  await ensureReady()
  // Three processes: each picks the run up from the last checkpoint; the run fails on its third attempt.
  await runBegin({ ...ident, runId: 'loop-1', goal: 'Import rows 1-4 of the ledger' }, at(0))
  await write('row-001', 1, 1)
  await write('row-001 row-002', 2, 1)
  await runBegin({ ...ident, runId: 'loop-1', goal: 'Import rows 1-4 of the ledger' }, at(10))
  await write('row-001 row-002 row-003', 11, 2)
  await runBegin({ ...ident, runId: 'loop-1', goal: 'Import rows 1-4 of the ledger' }, at(20))
  await write('row-001 row-002 row-003 row-004', 21, 3)
  await runComplete(
    {
      org: 'inc',
      namespace: 'ns',
      agent: 'importer',
      runId: 'loop-1',
      status: 'failed',
      outcome: 'row-004 was malformed',
    },
    at(22),
  )
  const put = await call(
    edit,
    '/x',
    { ...params, blockKey: 'checkpoint' },
    {
      method: 'PUT',
      body: { content: 'row-001 row-002 row-003', expectedVersion: '4', reason: 'redo row 4 after the fix' },
      headers: { origin: 'http://127.0.0.1:3000' },
    },
  )
  assert.equal(put.status, 200, JSON.stringify(put.body))
  await deriveNow()
  const res = await get()
  assert.equal(res.status, 200, JSON.stringify(res.body))
  assert.match(res.headers['content-type'], /^text\/markdown/)
  text = res.body as unknown as string
  if (process.env.SHOW_INCIDENT) console.log(text)
})

test('identity, goal, status and attempts', () => {
  assert.match(text, /^# Incident: Import rows 1\\-4 of the ledger$/m)
  assert.match(text, /\*\*Run:\*\* `inc\/ns\/importer\/loop-1`/)
  assert.match(text, /\*\*Status:\*\* failed, attempt 3 \(resumed 2×\)/)
  assert.match(text, /\*\*Checkpoint now:\*\* v5, 23 of /)
  assert.match(text, /\*\*Outcome:\*\* row\\-004 was malformed/)
})

test('flags, each with what it means for this run', () => {
  assert.match(text, /- \*\*crash loop\*\*: attempt 3 and failed: it has been started 3 times without succeeding/)
  assert.match(text, /- \*\*resumed\*\*: started 3 times \(resumed 2×\)/)
})

test('why it resumed where it did, and the last resume with its diff', () => {
  const why = text.split('## Why it resumed where it did')[1].split('## The last resume')[0]
  assert.ok(why.trim().split('\n').length >= 1 && why.includes('- '), why)
  const last = text.split('## The last resume')[1].split('## Operator actions')[0]
  assert.match(last, /it read v3 and next wrote v4\./)
  assert.match(
    last,
    /```diff\n--- v3\n\+\+\+ v4\n[\s\S]*\n-row-001 row-002 row-003\n\+row-001 row-002 row-003 row-004\n[\s\S]*```/,
  )
})

test('operator actions and links back to the console', () => {
  assert.match(text, /## Operator actions\n\n- .*: local edited `checkpoint` v5 \(was v4\): redo row 4 after the fix/)
  assert.match(text, /- Run: http:\/\/127\.0\.0\.1:3000\/runs\/inc\/ns\/importer\/loop-1$/m)
  assert.match(
    text,
    /- Compared with its last success: http:\/\/127\.0\.0\.1:3000\/compare\?a=inc%2Fns%2Fimporter%2Floop-1$/m,
  )
})

test('an unknown run is a 404', async () => {
  const res = await call(GET, '/x', { ...params, runId: 'nope' })
  assert.equal(res.status, 404)
})
