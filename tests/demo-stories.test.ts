import assert from 'node:assert/strict'
import { before, describe, test } from 'node:test'
import { z } from 'zod'
import { queryRows } from '../lib/clickhouse/query'
import * as sc from '../lib/demo/scenarios'
import type { DemoSummary } from '../lib/demo/seed'
import { ownerColumns } from '../lib/tables/values'
import * as runsMod from '../lib/loom/runs'
import { tableNames } from '../lib/loom/tables'
import * as wm from '../lib/loom/working-memory'
import { useFreshEngine } from './helpers/engine'
import { blockHistory } from './helpers/history-rows'
import { checkpointOf, DAY, ms, NOW, seededDemo, words } from './helpers/seeded-demo'

useFreshEngine('demo-stories', { LOOM_RUNS_DEMO: '1' })

let summary: DemoSummary
let t: ReturnType<typeof tableNames>

before(async () => {
  summary = await seededDemo()
  t = tableNames()
})

describe('the demo stories', () => {
  test('a) the batch run: crash after item 120, resume by a second process, clear at the end', async () => {
    const run = sc.DEMO_RUNS.batch
    const row = await runsMod.runLatestRow(run)
    assert.ok(row)
    assert.equal(row.attempt, 2)
    assert.equal(row.status, 'succeeded')
    assert.equal(typeof JSON.parse(row.reflection).summary, 'string')
    assert.ok(row.duration_ms! > 0)

    const h = await blockHistory(checkpointOf(run))
    assert.deepEqual(
      h.map((r) => r.version),
      Array.from({ length: 301 }, (_, i) => String(i + 1)),
    )
    const items = Array.from({ length: 300 }, (_, i) => `item-${String(i + 1).padStart(3, '0')}`)
    // Each version k is exactly the first k items, joined in sorted order.
    for (let k = 1; k <= 300; k++) assert.equal(h[k - 1].content, items.slice(0, k).join(' '), `version ${k}`)
    const v120 = h[119]
    const v121 = h[120]
    assert.equal(v120.source_trace, 'host-a/pid-4242')
    assert.equal(v121.source_trace, 'host-b/pid-5150')
    assert.notEqual(v121.source_trace, v120.source_trace)
    const added = words(v121.content).filter((w) => !words(v120.content).includes(w))
    assert.deepEqual(added, ['item-121'])
    // The resume gap is much longer than the usual checkpoint interval.
    assert.ok(ms(v121.updated_at) - ms(v120.updated_at) > 5 * 60_000)
    assert.ok(ms(h[119].updated_at) - ms(h[118].updated_at) < 60_000)
    // The second run.begin sits between the crash and the first checkpoint after it.
    const lastBegin = Date.parse(row.last_begin_at)
    assert.ok(lastBegin > ms(v120.updated_at) && lastBegin < ms(v121.updated_at))
    for (let i = 1; i < h.length; i++) assert.ok(ms(h[i].updated_at) > ms(h[i - 1].updated_at), 'times increase')
    const v301 = h[300]
    assert.equal(v301.is_deleted, 1)
    assert.equal(v301.content, '')
    assert.ok(ms(v301.updated_at) >= Date.parse(row.completed_at!))
    assert.equal(await wm.wmGet(checkpointOf(run)), null)
  })

  test('b) near miss: the s1 checkpoint stays behind, s2 redid everything', async () => {
    const run = sc.DEMO_RUNS.nearMiss
    const s1 = { ...checkpointOf(run), sessionId: sc.NEAR_MISS.firstSessionId }
    const s2 = { ...checkpointOf(run), sessionId: sc.NEAR_MISS.secondSessionId }
    assert.equal(s2.userId, 'u-7')
    const left = await wm.wmGet(s1)
    const done = await wm.wmGet(s2)
    assert.equal(words(left ?? '').length, 40)
    assert.equal(words(left ?? '').at(-1), 'item-040')
    assert.equal(words(done ?? '').length, 100)
    const h2 = await blockHistory(s2)
    assert.equal(h2.length, 100)
    // Redone from scratch: the first s2 checkpoint holds one item.
    assert.equal(h2[0].content, 'item-001')
    const h1 = await blockHistory(s1)
    assert.equal(h1.length, 40)
    assert.ok(ms(h2[0].updated_at) > ms(h1[39].updated_at))
    const row = await runsMod.runLatestRow(run)
    assert.equal(row?.attempt, 2)
    assert.equal(row?.session_id, 's2')
    assert.equal(row?.status, 'succeeded')
  })

  test('c) the checkpoint that outgrew char_limit: refused, run failed', async () => {
    const run = sc.DEMO_RUNS.tooLarge
    const row = await runsMod.runLatestRow(run)
    assert.equal(row?.status, 'failed')
    assert.match(row?.outcome ?? '', /too_large/)
    assert.match(row?.outcome ?? '', /char_limit of 1024/)
    const h = await blockHistory(checkpointOf(run))
    assert.ok(h.length >= 5)
    for (const r of h) {
      assert.equal(r.char_limit, 1024)
      assert.ok([...r.content].length <= 1024)
    }
    // The state really grew each step and was close to the limit when refused.
    const sizes = h.map((r) => r.content.length)
    assert.deepEqual(
      [...sizes].sort((a, b) => a - b),
      sizes,
    )
    assert.ok(sizes.at(-1)! > 900)
    const last = JSON.parse(h.at(-1)!.content) as { visited: string[] }
    assert.equal(last.visited.length, h.length)
  })

  test('d) state in a blob: the checkpoint holds blob_key and cursor; one blob already expired', async () => {
    const blobRow = z.object({ blob_key: z.string(), expires_at: z.string(), size_bytes: z.coerce.number() })
    const blobs = (run: { org: string; namespace: string; agent: string; runId: string }) =>
      queryRows(
        `SELECT blob_key, toString(expires_at) AS expires_at, size_bytes FROM ${t.contextBlobs}
         WHERE org = {org:String} AND namespace = {ns:String} AND agent = {agent:String} AND run_id = {run:String} ORDER BY created_at`,
        { org: run.org, ns: run.namespace, agent: run.agent, run: run.runId },
        blobRow,
      )

    const run = sc.DEMO_RUNS.blob
    const h = await blockHistory(checkpointOf(run))
    const states = h.map((r) => JSON.parse(r.content) as { blob_key: string; cursor: number })
    assert.deepEqual(
      states.map((s) => s.cursor),
      [1, 2, 3, 4, 5, 6, 7, 8],
    )
    const stored = await blobs(run)
    assert.equal(stored.length, 2)
    assert.deepEqual(
      states.map((s) => s.blob_key),
      [...Array(4).fill(stored[0].blob_key), ...Array(4).fill(stored[1].blob_key)],
    )
    for (const b of stored) {
      assert.ok(ms(b.expires_at) > NOW.getTime())
      assert.ok(b.size_bytes > 1000)
    }
    assert.equal((await runsMod.runLatestRow(run))?.status, 'succeeded')

    const expiredRun = sc.DEMO_RUNS.expiredBlob
    const state = JSON.parse((await wm.wmGet(checkpointOf(expiredRun))) ?? '{}') as { blob_key: string; cursor: number }
    assert.match(state.blob_key, /^blob-[0-9a-f]{12}$/)
    assert.equal(state.cursor, 3)
    // The blob expired: either still there with expires_at in the past, or already dropped by its TTL.
    const left = (await blobs(expiredRun)).filter((b) => b.blob_key === state.blob_key)
    for (const b of left) assert.ok(ms(b.expires_at) < NOW.getTime() - DAY)
    const row = await runsMod.runLatestRow(expiredRun)
    assert.equal(row?.status, 'failed')
    assert.equal(row?.attempt, 2)
    assert.match(row?.outcome ?? '', new RegExp(`${state.blob_key}.*expired`))
  })

  test('e) operator edit and clear: working-memory rows by operator:alice and two audit rows', async () => {
    const audit = await queryRows(
      `SELECT operator, action, reason, org, namespace, agent, user_id, session_id, run_id, block_key,
              before_version, after_version, before_content, after_content, request_id, toString(at) AS at
       FROM ${t.audit} ORDER BY at`,
      {},
      z.object({
        operator: z.string(),
        action: z.string(),
        reason: z.string(),
        ...ownerColumns,
        block_key: z.string(),
        before_version: z.string(),
        after_version: z.string(),
        before_content: z.string(),
        after_content: z.string(),
        request_id: z.string(),
        at: z.string(),
      }),
    )
    assert.equal(audit.length, 2)
    assert.deepEqual(
      audit.map((a) => a.operator),
      ['alice', 'alice'],
    )
    const edit = audit.find((a) => a.action === 'edit')!
    const clear = audit.find((a) => a.action === 'clear')!
    assert.ok(edit && clear)

    // The edit: the row it wrote, the version before it and the agent's version after it.
    const edited = sc.DEMO_RUNS.operatorEdited
    assert.equal(edit.run_id, edited.runId)
    assert.equal(edit.agent, 'invoice-reconciler')
    assert.equal(edit.block_key, 'checkpoint')
    assert.ok(edit.reason.length > 10)
    assert.match(edit.request_id, /^req-[0-9a-f]{12}$/)
    assert.equal(BigInt(edit.after_version), BigInt(edit.before_version) + 1n)
    const h = await blockHistory(checkpointOf(edited))
    const written = h.find((r) => r.version === edit.after_version)!
    assert.equal(written.actor, 'operator:alice')
    assert.equal(written.source_trace, 'loom-runs-console')
    assert.equal(written.content, edit.after_content)
    assert.equal(h.find((r) => r.version === edit.before_version)?.content, edit.before_content)
    assert.equal(ms(written.updated_at), ms(edit.at))
    assert.deepEqual((JSON.parse(edit.after_content) as { skipped: string[] }).skipped, ['inv-0412'])
    const after = h.find((r) => BigInt(r.version) === BigInt(edit.after_version) + 1n)!
    assert.equal(after.actor, 'invoice-reconciler')
    assert.equal((JSON.parse(after.content) as { cursor: string }).cursor, 'inv-0413')
    const editedRow = await runsMod.runLatestRow(edited)
    assert.equal(editedRow?.status, 'succeeded')
    assert.equal(editedRow?.attempt, 3)

    // The clear: a tombstone by the operator; resume now returns None.
    const cleared = sc.DEMO_RUNS.operatorCleared
    assert.equal(clear.run_id, cleared.runId)
    assert.equal(clear.after_content, '')
    assert.equal(words(clear.before_content).at(-1), '0042')
    const latest = await wm.wmLatestRow(checkpointOf(cleared))
    assert.equal(latest?.version, clear.after_version)
    assert.equal(latest?.is_deleted, 1)
    assert.equal(latest?.actor, 'operator:alice')
    assert.equal(await wm.wmGet(checkpointOf(cleared)), null)
    assert.equal((await runsMod.runLatestRow(cleared))?.status, 'failed')
  })

  test('f) conversations, searches and memories; the reader run uses memories the writer run wrote', async () => {
    const writer = sc.DEMO_RUNS.researchWriter
    const reader = sc.DEMO_RUNS.researchReader
    const turns = await queryRows(
      `SELECT turn_index, role, tool_name, input_tokens, output_tokens, cost_usd FROM ${t.turns}
       WHERE org = {org:String} AND namespace = {ns:String} AND agent = {agent:String} AND run_id = {run:String} ORDER BY turn_index`,
      { org: writer.org, ns: writer.namespace, agent: writer.agent, run: writer.runId },
      z.object({
        turn_index: z.coerce.number(),
        role: z.string(),
        tool_name: z.string(),
        input_tokens: z.coerce.number(),
        output_tokens: z.coerce.number(),
        cost_usd: z.coerce.number(),
      }),
    )
    assert.deepEqual(
      turns.map((x) => x.turn_index),
      turns.map((_, i) => i),
    )
    assert.deepEqual([...new Set(turns.map((x) => x.role))].sort(), ['assistant', 'system', 'tool', 'user'])
    assert.ok(turns.some((x) => x.role === 'tool' && x.tool_name !== ''))
    const writerRow = await runsMod.runLatestRow(writer)
    assert.equal(writerRow?.turns, turns.length)
    assert.equal(
      writerRow?.input_tokens,
      turns.reduce((a, x) => a + x.input_tokens, 0),
    )
    assert.ok(Math.abs(writerRow!.cost_usd - turns.reduce((a, x) => a + x.cost_usd, 0)) < 1e-9)
    assert.ok(writerRow!.cost_usd > 0)

    const searches = await queryRows(
      `SELECT run_id, query, result_keys, result_scores FROM ${t.searchTrace}
       WHERE org = {org:String} AND namespace = {ns:String} AND agent = {agent:String} ORDER BY event_time`,
      { org: reader.org, ns: reader.namespace, agent: reader.agent },
      z.object({
        run_id: z.string(),
        query: z.string(),
        result_keys: z.array(z.string()),
        result_scores: z.array(z.number()),
      }),
    )
    const readerSearches = searches.filter((s) => s.run_id === reader.runId)
    assert.equal(readerSearches.length, 2)
    for (const s of readerSearches)
      assert.deepEqual(
        [...s.result_scores].sort((a, b) => b - a),
        s.result_scores,
      )
    const hits = new Set(readerSearches.flatMap((s) => s.result_keys))

    const readerRow = await runsMod.runLatestRow(reader)
    assert.ok(readerRow)
    assert.equal(readerRow.status, 'succeeded')
    assert.ok(readerRow.memories_used.length >= 2)
    for (const k of readerRow.memories_used) assert.ok(hits.has(k), `${k} was not among the hits`)
    assert.ok(readerRow.memories_used.length < hits.size, 'only some hits are used')
    assert.equal(typeof JSON.parse(readerRow.reflection).summary, 'string')

    const memories = await queryRows(
      `SELECT memory_key, run_id, version FROM ${t.memory} FINAL
       WHERE org = {org:String} AND namespace = {ns:String} AND agent = {agent:String}`,
      { org: reader.org, ns: reader.namespace, agent: reader.agent },
      z.object({ memory_key: z.string(), run_id: z.string(), version: z.string() }),
    )
    const byWriter = new Set(memories.filter((m) => m.run_id === writer.runId).map((m) => m.memory_key))
    const usedFromWriter = readerRow.memories_used.filter((k) => byWriter.has(k))
    assert.deepEqual(usedFromWriter, ['procurement.q3.budget-cap', 'vendor.northwind.tier-2.price'])
    // The reader also wrote a new version of one of the writer's memories.
    const contoso = memories.find((m) => m.memory_key === 'vendor.contoso.tier-2.price')
    assert.equal(contoso?.run_id, reader.runId)
    assert.equal(contoso?.version, '2')
  })

  test('g) orgs, namespaces, statuses, a live running run, checkpoint-only runs, the odd run_id', async () => {
    const all = await queryRows(
      `SELECT org, namespace, agent, run_id, status, toString(started_at) AS started_at FROM ${t.runs} FINAL`,
      {},
      z.object({
        org: z.string(),
        namespace: z.string(),
        agent: z.string(),
        run_id: z.string(),
        status: z.string(),
        started_at: z.string(),
      }),
    )
    assert.deepEqual([...new Set(all.map((r) => r.org))].sort(), ['acme', 'dev', 'globex'])
    assert.deepEqual([...new Set(all.map((r) => r.namespace))].sort(), ['local', 'prod', 'staging'])
    assert.ok(new Set(all.map((r) => r.agent)).size >= 10)
    const statuses = all.reduce<Record<string, number>>(
      (acc, r) => ({ ...acc, [r.status]: (acc[r.status] ?? 0) + 1 }),
      {},
    )
    assert.deepEqual(statuses, summary.runsByStatus)
    for (const s of ['succeeded', 'failed', 'running', 'cancelled']) assert.ok(statuses[s] > 0, `no ${s} run`)
    // Some runs start in the same millisecond (keyset pagination ties).
    assert.ok(new Set(all.map((r) => r.started_at)).size < all.length)

    const running = sc.DEMO_RUNS.running
    assert.equal(all.find((r) => r.run_id === running.runId)?.status, 'running')
    const latest = await wm.wmLatestRow(checkpointOf(running))
    assert.ok(latest)
    const age = NOW.getTime() - Date.parse(latest.updated_at)
    assert.ok(age >= 0 && age < 60_000, `last checkpoint ${age} ms before now`)
    assert.ok((await blockHistory(checkpointOf(running))).length >= 5)
    assert.equal(all.find((r) => r.run_id === sc.DEMO_RUNS.staleRunning.runId)?.status, 'running')

    for (const run of sc.DEMO_RUNS.checkpointOnly) {
      assert.equal(await runsMod.runLatestRow(run), null)
      assert.ok((await blockHistory(checkpointOf(run))).length >= 2)
    }
    const notes = await wm.wmGet({ ...sc.DEMO_RUNS.checkpointOnly[0], blockKey: 'notes' })
    assert.equal(notes?.split('\n').length, 3)

    const edge = sc.DEMO_RUNS.edgeCase
    const edgeRow = await runsMod.runLatestRow(edge)
    assert.equal(edgeRow?.run_id, 'run/with%odd "chars" ü')
    assert.equal(edgeRow?.org, 'dev')
    assert.equal(edgeRow?.namespace, 'local')
    assert.equal(edgeRow?.agent, 'edge-cases')
    assert.match((await wm.wmGet(checkpointOf(edge))) ?? '', /ü "quoted" 50%/)
  })
})
