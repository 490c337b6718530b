import assert from 'node:assert/strict'
import { before, describe, test } from 'node:test'
import { unitsToRedo } from '../lib/diff'
import { conversationAppend } from '../lib/loom/conversations'
import { contextOffload } from '../lib/loom/context-blobs'
import { memorySet } from '../lib/loom/memory'
import { runBegin } from '../lib/loom/runs'
import { logSearch } from '../lib/loom/search-trace'
import * as wm from '../lib/loom/working-memory'
import { ensureReady } from '../lib/server/ready'
import { GET as replayRoute } from '../app/api/runs/[org]/[namespace]/[agent]/[runId]/blocks/[blockKey]/replay/route'
import { useFreshEngine } from './helpers/engine'
import { call } from './helpers/routes'
import { runCommand } from '../lib/clickhouse/query'
import { param, sql, trusted } from '../lib/clickhouse/sql'
import { tableNames } from '../lib/loom/tables'

useFreshEngine('replay')

const RUN = { org: 'acme', namespace: 'prod', agent: 'indexer', runId: 'run-replay', userId: '', sessionId: '' }
const BLOCK = { ...RUN, blockKey: 'checkpoint' }
const PATH = { org: RUN.org, namespace: RUN.namespace, agent: RUN.agent, runId: RUN.runId, blockKey: 'checkpoint' }
const URL = `/api/runs/acme/prod/indexer/run-replay/blocks/checkpoint/replay`
const T0 = Date.parse('2026-12-01T10:00:00.000Z')
const at = (minute: number) => () => new Date(T0 + minute * 60_000)
const ids = (n: number) => Array.from({ length: n }, (_, i) => `item-${String(i + 1).padStart(3, '0')}`).join(' ')

before(async () => {
  await ensureReady()
  await runBegin({ ...RUN, goal: 'index the archive' }, at(0))
  const who = (minute: number) => ({ actor: 'indexer', sourceTrace: 'h/1', now: at(minute) })
  await wm.wmSet(BLOCK, ids(2), who(1)) // v1
  await wm.wmSet(BLOCK, ids(4), who(2)) // v2
  // After v2: 3 turns, 2 memory writes, 1 search, 1 blob, then v3 and v4.
  for (const [i, content] of ['fetch 3', 'fetch 4', 'fetch 5'].entries()) {
    await conversationAppend({ ...RUN, conversationId: 'c1', role: 'assistant', content }, at(3 + i * 0.1))
  }
  await memorySet({ ...RUN, memoryKey: 'source', value: 'archive' }, at(3.5))
  await memorySet({ ...RUN, memoryKey: 'source', value: 'archive-2' }, at(3.6))
  await logSearch({ ...RUN, query: 'page 5', mode: 'keyword', topK: 3, hits: [], latencyMs: 4 }, at(3.7))
  await contextOffload({ ...RUN, summary: 'page 5 body', content: 'x', ttlSeconds: 365 * 86_400 }, at(3.8))
  await wm.wmSet(BLOCK, ids(5), who(4)) // v3
  await wm.wmSet(BLOCK, ids(7), who(5)) // v4
})

describe('replay preview', () => {
  test('a block written before the history capture was installed is read from the physical rows', async () => {
    // As if the capture came after these writes: their history rows are gone, the table's own rows remain.
    const old = { ...BLOCK, runId: 'run-before-history' }
    await wm.wmSet(old, 'item-001', { actor: 'indexer', sourceTrace: 'h/p1', now: at(1) })
    await wm.wmSet(old, 'item-001 item-002', { actor: 'indexer', sourceTrace: 'h/p1', now: at(2) })
    await runCommand(
      sql`DELETE FROM ${trusted(tableNames().history)} WHERE run_id = ${param('run', 'String', old.runId)}`,
    )
    // A clear (merges may already have collapsed v1 out of the physical rows).
    const res = await call(replayRoute, `/api/runs/acme/prod/indexer/run-before-history/blocks/checkpoint/replay`, {
      ...PATH,
      runId: old.runId,
    })
    assert.equal(res.status, 200, JSON.stringify(res.body))
    assert.equal(res.body.current.version, '2')
    assert.deepEqual(res.body.units, { kind: 'list', redo: 2, sample: ['item-001', 'item-002'] })
  })

  test('going back to v2: the units the agent redoes, and every kind of row the run wrote after v2', async () => {
    const res = await call(replayRoute, `${URL}?toVersion=2`, PATH)
    assert.equal(res.status, 200, JSON.stringify(res.body))
    const b = res.body
    assert.equal(b.toVersion, '2')
    assert.deepEqual(b.target, { version: '2', updatedAt: '2026-12-01T10:02:00.000Z' })
    assert.equal(b.current.version, '4')
    assert.equal(b.since, '2026-12-01T10:02:00.000Z')
    assert.deepEqual(b.after, { checkpointWrites: 2, turns: 3, memoryWrites: 2, searches: 1, blobs: 1 })
    assert.deepEqual(b.units, { kind: 'list', redo: 3, sample: ['item-005', 'item-006', 'item-007'] })
    assert.equal(b.running, true)
    assert.ok(b.notes.some((n: string) => /still running/.test(n)))
  })

  test('a clear counts from the run’s first write, and every unit is redone', async () => {
    const res = await call(replayRoute, URL, PATH)
    assert.equal(res.status, 200)
    assert.equal(res.body.toVersion, null)
    assert.equal(res.body.target, null)
    assert.equal(res.body.since, '2026-12-01T10:01:00.000Z')
    assert.equal(res.body.after.checkpointWrites, 3)
    assert.equal(res.body.units.redo, 7)
    assert.equal(res.body.units.sample.length, 7)
  })

  test('the latest version: nothing to redo, nothing after', async () => {
    const res = await call(replayRoute, `${URL}?toVersion=4`, PATH)
    assert.equal(res.status, 200)
    assert.deepEqual(res.body.after, { checkpointWrites: 0, turns: 0, memoryWrites: 0, searches: 0, blobs: 0 })
    assert.equal(res.body.units.redo, 0)
  })

  test('bad input: a 400 naming toVersion; an unknown version or block is a 404; nothing is written', async () => {
    const bad = await call(replayRoute, `${URL}?toVersion=abc`, PATH)
    assert.equal(bad.status, 400)
    assert.equal(bad.body.error.field, 'toVersion')
    const missing = await call(replayRoute, `${URL}?toVersion=99`, PATH)
    assert.equal(missing.status, 404)
    assert.match(missing.body.error.message, /toVersion 99/)
    const noBlock = await call(replayRoute, URL.replace('/checkpoint/', '/nope/'), { ...PATH, blockKey: 'nope' })
    assert.equal(noBlock.status, 404)
    assert.equal(await wm.wmGet(BLOCK), ids(7))
  })
})

describe('units to redo', () => {
  test('id lists, JSON arrays and unit fields; mixed or uncountable states say none', () => {
    assert.deepEqual(unitsToRedo('a1 b2 c3', 'a1'), { kind: 'list', redo: 2, sample: ['b2', 'c3'] })
    assert.deepEqual(unitsToRedo('["x","y",{"id":1}]', '["x"]'), {
      kind: 'json-array',
      redo: 2,
      sample: ['y', '{"id":1}'],
    })
    assert.deepEqual(unitsToRedo('{"done":["p1","p2"],"cursor":3}', '{"done":["p1"],"cursor":1}'), {
      kind: 'json-array',
      redo: 1,
      sample: ['p2'],
    })
    assert.deepEqual(unitsToRedo('a1 b2', '{"cursor":1}'), { kind: 'none', redo: null, sample: [] })
    assert.deepEqual(unitsToRedo('step 4 of the plan', 'step 3'), { kind: 'none', redo: null, sample: [] })
    assert.equal(unitsToRedo(ids(30), null).sample.length, 10)
    // Cleared now: going back to a list redoes nothing of it.
    assert.deepEqual(unitsToRedo('', 'a1 b2'), { kind: 'list', redo: 0, sample: [] })
    assert.deepEqual(unitsToRedo('', null), { kind: 'none', redo: null, sample: [] })
  })
})
