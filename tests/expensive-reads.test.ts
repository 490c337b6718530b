import assert from 'node:assert/strict'
import { before, describe, test } from 'node:test'
import { withQueryStats } from '../lib/clickhouse/query'
import { insertRows } from '../lib/loom/insert'
import { runBegin } from '../lib/loom/runs'
import { tableNames } from '../lib/loom/tables'
import { wmSet } from '../lib/loom/working-memory'
import { EXPORT_PAGE_BLOCKS, exportRunStream } from '../lib/queries/export'
import { keepCap, SEARCHES_CAP } from '../lib/queries/list-cut'
import { ensureReady } from '../lib/server/ready'
import { SharedResult } from '../lib/server/shared-result'
import { GET as blobsRoute } from '../app/api/runs/[org]/[namespace]/[agent]/[runId]/blobs/route'
import { GET as exportRoute } from '../app/api/runs/[org]/[namespace]/[agent]/[runId]/export/route'
import { GET as searchesRoute } from '../app/api/runs/[org]/[namespace]/[agent]/[runId]/searches/route'
import { GET as schemaRoute } from '../app/api/schema/route'
import { useFreshEngine } from './helpers/engine'
import { call } from './helpers/routes'

// LOOM_RUNS_BENCH=1 turns on the per-request query statistics this test counts queries with.
useFreshEngine('expensive-reads', { LOOM_RUNS_BENCH: '1' })

/*
 * Reads a viewer can trigger that used to cost in proportion to the data: the schema report's
 * full-table scans (now shared and cached) and the export of a run with thousands of blocks
 * (now streamed a page of blocks at a time, with a number of queries that grows by page).
 */

const RUN = { org: 'big', namespace: 'export', agent: 'many-blocks', runId: 'run-many-blocks' }
const BLOCKS = 1_203
const who = { actor: 'many-blocks', sourceTrace: 'host-a/pid-1' }

before(async () => {
  await ensureReady()
  const base = {
    ...RUN,
    user_id: '',
    session_id: '',
    run_id: RUN.runId,
    char_limit: 4096,
    is_deleted: 0,
    actor: who.actor,
    source_trace: who.sourceTrace,
  }
  const at = (i: number) =>
    new Date(Date.UTC(2026, 10, 20, 10, 0, 0, i)).toISOString().replace('T', ' ').replace('Z', '')
  // Many small blocks in one insert (the write path is tested elsewhere); three versions of one of them.
  const rows = Array.from({ length: BLOCKS }, (_, i) => ({
    ...base,
    block_key: `note-${String(i).padStart(5, '0')}`,
    content: `note ${i}`,
    version: '1',
    updated_at: at(i),
  }))
  rows.push({ ...base, block_key: 'note-00600', content: 'note 600 v2', version: '2', updated_at: at(5000) })
  rows.push({ ...base, block_key: 'note-00600', content: 'note 600 v3', version: '3', updated_at: at(5001) })
  await insertRows(tableNames().workingMemory, rows)
  const ref = { ...RUN, userId: '', sessionId: '', blockKey: 'checkpoint' }
  await wmSet(ref, 'done: a', who)
  await wmSet(ref, 'done: a b', who)
})

describe('export of a run with thousands of blocks', () => {
  test('is one whole document, every block with all its versions, in a number of queries bounded by pages', async () => {
    const [text, stats] = await withQueryStats(async () => new Response(await exportRunStream(RUN)).text())
    const doc = JSON.parse(text)
    assert.equal(doc.blocks.length, BLOCKS + 1)
    assert.equal(doc.blockDetails.length, BLOCKS + 1)
    const keys = doc.blockDetails.map((d: { blockKey: string }) => d.blockKey)
    assert.equal(new Set(keys).size, BLOCKS + 1, 'no block twice')
    const multi = doc.blockDetails.find((d: { blockKey: string }) => d.blockKey === 'note-00600')
    // Physical rows may already be merged; the captured history keeps every version.
    assert.equal(multi.versions[0].version, '3')
    assert.equal(multi.versions[0].content, 'note 600 v3')
    assert.deepEqual(
      multi.history.map((v: { version: string }) => v.version),
      ['3', '2', '1'],
    )
    const cp = doc.blockDetails.find((d: { blockKey: string }) => d.blockKey === 'checkpoint')
    assert.equal(cp.resume.value, 'done: a b')
    assert.equal(cp.resume.fromVersion, '2')
    assert.equal(doc.blocks.find((b: { blockKey: string }) => b.blockKey === 'note-01202').content, 'note 1202')
    // Before: one block-detail batch (7 queries) per block, over 8,000 here.
    const pages = Math.ceil((BLOCKS + 1) / EXPORT_PAGE_BLOCKS)
    assert.ok(stats && stats.queries <= 6 * pages + 30, `${stats?.queries} queries for ${BLOCKS + 1} blocks`)
    console.log(`export: ${stats?.queries} queries, ${text.length} characters, ${BLOCKS + 1} blocks`)
  })

  test('through the route: a streamed download; an unknown run is 404 before any byte', async () => {
    const ok = await call(exportRoute, '/x', RUN)
    assert.equal(ok.status, 200)
    assert.match(ok.headers['content-disposition'] ?? '', /attachment; filename="loom-run-run-many-blocks.json"/)
    assert.equal(ok.body.blockDetails.length, BLOCKS + 1)
    const missing = await call(exportRoute, '/x', { ...RUN, runId: 'no-such-run' })
    assert.equal(missing.status, 404)
  })
})

describe('capped lists say they were cut', () => {
  const SEARCH_RUN = { org: 'big', namespace: 'export', agent: 'searcher', runId: 'run-many-searches' }

  test('a run with one search more than the cap: the first 5,000 come back, with a cut named in the answer and the export', async () => {
    await runBegin({ ...SEARCH_RUN, userId: '', sessionId: '', goal: 'search a lot' })
    const rows = Array.from({ length: SEARCHES_CAP + 1 }, (_, i) => ({
      ...SEARCH_RUN,
      user_id: '',
      session_id: '',
      run_id: SEARCH_RUN.runId,
      search_id: `s-${i}`,
      query: `q ${i}`,
      mode: 'hybrid',
      filters: '{}',
      top_k: 1,
      result_keys: [],
      result_scores: [],
      latency_ms: 1,
      event_time: new Date(Date.UTC(2026, 10, 20, 10, 0, 0) + i * 1000)
        .toISOString()
        .replace('T', ' ')
        .replace('Z', ''),
    }))
    await insertRows(tableNames().searchTrace, rows)
    const res = await call(searchesRoute, '/x', SEARCH_RUN)
    assert.equal(res.status, 200)
    assert.equal(res.body.searches.length, SEARCHES_CAP)
    assert.deepEqual(res.body.cuts, [{ list: 'searches', limit: SEARCHES_CAP }])
    assert.equal(res.body.searches[SEARCHES_CAP - 1].query, `q ${SEARCHES_CAP - 1}`)
    const doc = JSON.parse(await new Response(await exportRunStream(SEARCH_RUN)).text())
    assert.deepEqual(doc.cuts, [{ list: 'searches.searches', limit: SEARCHES_CAP }])
    // A list under its cap says nothing.
    const blobs = await call(blobsRoute, '/x', RUN)
    assert.deepEqual(blobs.body.cuts ?? [], [])
  })

  test('keepCap keeps the first rows and records the cut only past the cap', async () => {
    const cuts: { list: string; limit: number }[] = []
    assert.deepEqual(keepCap([1, 2, 3], 3, 'a', cuts), [1, 2, 3])
    assert.deepEqual(cuts, [])
    assert.deepEqual(keepCap([1, 2, 3, 4], 3, 'b', cuts), [1, 2, 3])
    assert.deepEqual(cuts, [{ list: 'b', limit: 3 }])
  })
})

describe('the schema report', () => {
  test('is computed once for concurrent viewers and then served from the cache; a refresh is honoured at most every 10 s', async () => {
    const [a, b, c] = await Promise.all([
      call(schemaRoute, '/api/schema'),
      call(schemaRoute, '/api/schema'),
      call(schemaRoute, '/api/schema'),
    ])
    assert.equal(a.status, 200)
    assert.equal(new Set([a.body.checkedAt, b.body.checkedAt, c.body.checkedAt]).size, 1, 'one computation shared')
    const later = await call(schemaRoute, '/api/schema')
    assert.equal(later.body.cached, true)
    assert.equal(later.body.checkedAt, a.body.checkedAt)
    const refreshed = await call(schemaRoute, '/api/schema?refresh=1')
    assert.equal(refreshed.body.checkedAt, a.body.checkedAt, 'too soon to read again')
    const bad = await call(schemaRoute, '/api/schema?refresh=yes')
    assert.equal(bad.status, 400)
    assert.equal(bad.body.error.field, 'refresh')
  })

  test('SharedResult: one computation for concurrent callers, kept for its TTL, refreshed after the minimum age', async () => {
    let computed = 0
    const r = new SharedResult(async () => ++computed, 60_000, 10_000)
    const all = await Promise.all([r.get(), r.get(), r.get()])
    assert.deepEqual(
      all.map((x) => x.data),
      [1, 1, 1],
    )
    assert.equal(computed, 1)
    const t0 = all[0].at
    assert.equal((await r.get({ now: t0 + 30_000 })).data, 1)
    assert.equal((await r.get({ refresh: true, now: t0 + 5_000 })).data, 1)
    assert.equal((await r.get({ refresh: true, now: t0 + 11_000 })).data, 2)
    assert.equal((await r.get({ now: Date.now() + 120_000 })).data, 3, 'past the TTL')
  })
})
