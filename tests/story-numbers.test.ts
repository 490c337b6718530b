import assert from 'node:assert/strict'
import { before, describe, test } from 'node:test'
import { getClient } from '../lib/clickhouse/client'
import { createMissingSchema } from '../lib/setup/init'
import { memorySet } from '../lib/loom/memory'
import { runBegin } from '../lib/loom/runs'
import { logSearch } from '../lib/loom/search-trace'
import { tableNames } from '../lib/loom/tables'
import { runMemories } from '../lib/queries/memory'
import { runSearches } from '../lib/queries/search-trace'
import { useFreshEngine } from './helpers/engine'

useFreshEngine('story-numbers')

const base = { org: 'acme', namespace: 'support', userId: '', sessionId: '' }
const writer = { ...base, agent: 'helper', runId: 'writer-1' }
const reader = { ...base, agent: 'helper', runId: 'reader-1' }
const t0 = Date.parse('2026-11-20T10:00:00.000Z')
const at = (s: number) => () => new Date(t0 + s * 1000)

before(async () => {
  await createMissingSchema({ history: true })
  await runBegin({ ...reader, goal: 'answer' }, at(100))
  // Two versions of one key by the reader, merged into one stored row.
  await memorySet({ ...reader, memoryKey: 'notes.draft', value: 'one', runId: reader.runId }, at(220))
  await memorySet({ ...reader, memoryKey: 'notes.draft', value: 'two', runId: reader.runId }, at(221))
  await getClient().command({ query: `OPTIMIZE TABLE ${tableNames().memory} FINAL` })
  // From here on every version stays stored, so the test knows what is there.
  await getClient().command({ query: `SYSTEM STOP MERGES ${tableNames().memory}` })
  await runBegin({ ...writer, goal: 'research' }, at(0))
  await memorySet({ ...writer, memoryKey: 'policy.refund', value: { max: 100 }, runId: writer.runId }, at(10))
  await logSearch(
    {
      ...reader,
      query: 'refund policy',
      mode: 'hybrid',
      topK: 3,
      hits: [
        { memoryKey: 'policy.refund', score: 0.9 },
        { memoryKey: 'policy.fresh', score: 0.5 },
      ],
      latencyMs: 3,
    },
    at(200),
  )
  // Both written 11 s after the search: neither was this run's when the search returned them.
  await memorySet({ ...reader, memoryKey: 'policy.refund', value: { max: 200 }, runId: reader.runId }, at(211))
  await memorySet({ ...reader, memoryKey: 'policy.fresh', value: { a: 1 }, runId: reader.runId }, at(211))
})

describe('searches: a hit is attributed to whoever had written it at search time', () => {
  test('a write after the search is labelled later, not as the writer', async () => {
    const { searches } = await runSearches(reader)
    assert.equal(searches.length, 1)
    const [refund, fresh] = searches[0].hits
    assert.equal(refund.memoryKey, 'policy.refund')
    assert.deepEqual(refund.writtenBy, {
      agent: 'helper',
      runId: 'writer-1',
      version: '1',
      at: '2026-11-20T10:00:10.000Z',
    })
    assert.deepEqual(refund.writtenAfter, {
      agent: 'helper',
      runId: 'reader-1',
      version: '2',
      at: '2026-11-20T10:03:31.000Z',
    })
    assert.equal(fresh.memoryKey, 'policy.fresh')
    assert.equal(fresh.writtenBy, null, 'not written by this run at search time')
    assert.equal(fresh.writtenAfter?.runId, 'reader-1')
    assert.equal(fresh.searchedVersionGone, true)
  })
})

describe('memories: counts say what is stored', () => {
  test('latest version number and the versions still stored are reported apart', async () => {
    const { written } = await runMemories(reader)
    const byKey = new Map(written.map((m) => [m.memoryKey, m]))
    const refund = byKey.get('policy.refund')!
    assert.equal(refund.version, '2')
    assert.equal(refund.versionCount, 1)
    assert.deepEqual(refund.versionsStored, ['2'])
    const draft = byKey.get('notes.draft')!
    assert.equal(draft.version, '2')
    assert.deepEqual(draft.versionsStored, ['2'], 'v1 merged away')
  })
})
