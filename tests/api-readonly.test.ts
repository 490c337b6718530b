import assert from 'node:assert/strict'
import { test } from 'node:test'
import { createMissingSchema } from '../lib/setup/init'
import * as wm from '../lib/loom/working-memory'
import * as block from '../app/api/runs/[org]/[namespace]/[agent]/[runId]/blocks/[blockKey]/route'
import * as restore from '../app/api/runs/[org]/[namespace]/[agent]/[runId]/blocks/[blockKey]/restore/route'
import { useFreshEngine } from './helpers/engine'
import { call } from './helpers/routes'

useFreshEngine('api-readonly', { LOOM_RUNS_READ_ONLY: '1' })

test('read-only mode refuses every write route with 403 and changes nothing', async () => {
  // Read-only mode creates nothing at start; the test prepares the tables itself.
  await createMissingSchema({ history: true })
  const ref = { org: 'o', namespace: 'n', agent: 'a', runId: 'r1', blockKey: 'checkpoint', userId: '', sessionId: '' }
  await wm.wmSet(ref, 'v1', { actor: 'a', sourceTrace: 't' })
  const path = { org: 'o', namespace: 'n', agent: 'a', runId: 'r1', blockKey: 'checkpoint' }
  const results = [
    await call(block.PUT, '/x', path, { method: 'PUT', body: { content: 'x', expectedVersion: '1', reason: 'r' } }),
    await call(block.DELETE, '/x', path, { method: 'DELETE', body: { expectedVersion: '1', reason: 'r' } }),
    await call(restore.POST, '/x', path, { method: 'POST', body: { version: '1', expectedVersion: '1', reason: 'r' } }),
  ]
  for (const res of results) {
    assert.equal(res.status, 403)
    assert.match(res.body.error.message, /read-only/)
  }
  assert.equal(await wm.wmGet(ref), 'v1')
  const read = await call(block.GET, '/x', path)
  assert.equal(read.status, 200)
  assert.equal(read.body.block.version, '1')
})
