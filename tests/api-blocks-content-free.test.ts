import assert from 'node:assert/strict'
import { before, describe, test } from 'node:test'
import { createMissingSchema } from '../lib/setup/init'
import { runBegin } from '../lib/loom/runs'
import { wmDelete, wmSet } from '../lib/loom/working-memory'
import { runBlocks, runBlockSummaries } from '../lib/queries/working-memory'
import { GET as blocksRoute } from '../app/api/runs/[org]/[namespace]/[agent]/[runId]/blocks/route'
import { useFreshEngine } from './helpers/engine'
import { call } from './helpers/routes'

useFreshEngine('api-blocks-content-free')

const RUN = { org: 'acme', namespace: 'prod', agent: 'picker-agent', runId: 'run-many-blocks' }

before(async () => {
  await createMissingSchema({ history: true })
  await runBegin({ ...RUN, userId: 'u1', sessionId: 's1', goal: 'many blocks' })
  const ctx = { actor: RUN.agent, sourceTrace: 'h/1' }
  const at = (userId: string, sessionId: string, blockKey: string) => ({ ...RUN, userId, sessionId, blockKey })
  await wmSet(at('u1', 's1', 'checkpoint'), 'item-1 item-2', ctx)
  await wmSet(at('u1', 's1', 'checkpoint'), 'item-1 item-2 item-3', ctx)
  // Characters outside the BMP and multi-byte text: chars counts code points, not bytes or UTF-16 units.
  await wmSet(at('u1', 's1', 'notes'), 'naïve café 🚀🚀 — 東京', ctx)
  await wmSet(at('u1', 's1', 'plan'), JSON.stringify({ step: 3, todo: ['a', 'b'] }), ctx)
  await wmSet(at('u1', 's1', 'scratch'), 'to be cleared', ctx)
  await wmDelete(at('u1', 's1', 'scratch'), ctx)
  await wmSet(at('u2', 's9', 'checkpoint'), 'item-1', ctx)
  await wmSet(at('', '', 'empty'), '', ctx)
})

describe('GET R/blocks?content=none', () => {
  test('lists the same blocks, keys, versions and sizes as the full list, without content', async () => {
    const full = await call(blocksRoute, '/x', RUN)
    const light = await call(blocksRoute, '/x?content=none', RUN)
    assert.equal(full.status, 200)
    assert.equal(light.status, 200)
    assert.equal(full.body.blocks.length, 6)
    assert.equal(light.body.blocks.length, full.body.blocks.length)
    for (const b of light.body.blocks) assert.equal('content' in b, false, `${b.blockKey} carries content`)
    const withoutContent = full.body.blocks.map(({ content, ...rest }: { content: string }) => {
      assert.equal(typeof content, 'string')
      return rest
    })
    // Same order, same fields, same values: only content is left out.
    assert.deepEqual(light.body.blocks, withoutContent)
    const notes = light.body.blocks.find((b: { blockKey: string }) => b.blockKey === 'notes')
    assert.equal(notes.chars, [...'naïve café 🚀🚀 — 東京'].length)
    const cp = light.body.blocks.find(
      (b: { blockKey: string; userId: string }) => b.blockKey === 'checkpoint' && b.userId === 'u1',
    )
    assert.equal(
      cp.version,
      full.body.blocks.find(
        (b: { blockKey: string; userId: string }) => b.blockKey === 'checkpoint' && b.userId === 'u1',
      ).version,
    )
    assert.equal(light.body.blocks.find((b: { blockKey: string }) => b.blockKey === 'scratch').isDeleted, true)
  })

  test('both lists, formatted by ClickHouse, equal the blocks as the query module reads and types them', async () => {
    const full = await call(blocksRoute, '/x', RUN)
    assert.equal(full.headers['content-type'], 'application/json')
    assert.deepEqual(full.body, JSON.parse(JSON.stringify({ blocks: await runBlocks(RUN) })))
    const light = await call(blocksRoute, '/x?content=none', RUN)
    assert.deepEqual(light.body, JSON.parse(JSON.stringify({ blocks: await runBlockSummaries(RUN) })))
  })

  test('the default and content=full answer the full list, as before', async () => {
    const dflt = await call(blocksRoute, '/x', RUN)
    const full = await call(blocksRoute, '/x?content=full', RUN)
    assert.deepEqual(full.body, dflt.body)
    assert.equal(
      dflt.body.blocks.find((b: { blockKey: string }) => b.blockKey === 'plan').content,
      JSON.stringify({ step: 3, todo: ['a', 'b'] }),
    )
  })

  test('an unknown content value is a 400 naming the field; an unknown run a 404', async () => {
    const bad = await call(blocksRoute, '/x?content=some', RUN)
    assert.equal(bad.status, 400)
    assert.equal(bad.body.error.field, 'content')
    const missing = await call(blocksRoute, '/x?content=none', { ...RUN, runId: 'no-such-run' })
    assert.equal(missing.status, 404)
  })
})
