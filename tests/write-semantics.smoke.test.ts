import assert from 'node:assert/strict'
import { test } from 'node:test'
import { createMissingSchema } from '../lib/setup/init'
import * as wm from '../lib/loom/working-memory'
import { useFreshEngine } from './helpers/engine'

useFreshEngine('smoke')

test('set then get returns the content at version 1', async () => {
  await createMissingSchema({ history: true })
  const ref = { org: 'o', namespace: 'n', agent: 'a', userId: '', sessionId: '', runId: 'r1', blockKey: 'checkpoint' }
  const ctx = { actor: 'a', sourceTrace: 'host/pid-1' }
  const r = await wm.wmSet(ref, 'item-1', ctx)
  assert.equal(r.row.version, '1')
  assert.equal(await wm.wmGet(ref), 'item-1')
})
