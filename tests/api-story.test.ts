import assert from 'node:assert/strict'
import { before, describe, test } from 'node:test'
import { command } from '../lib/clickhouse/query'
import { insertRows } from '../lib/loom/insert'
import type { DemoRuns } from '../lib/demo/scenarios'
import { seedDemo } from '../lib/demo/seed'
import { createMissingSchema } from '../lib/setup/init'
import { tableNames } from '../lib/loom/tables'
import { useFreshEngine } from './helpers/engine'
import { call, columns } from './helpers/routes'
import { apiRoutes } from './helpers/api-routes'

useFreshEngine('api-story')

const NOW = new Date('2026-11-25T12:00:00.000Z')
let runs: DemoRuns
const { timeline, conversations, memories, searches, blobs, exportDoc } = apiRoutes
/** The routes that tell a run's story. */
const routes = { timeline, conversations, memories, searches, blobs, exportDoc }

const path = (r: { org: string; namespace: string; agent: string; runId: string }) => ({
  org: r.org,
  namespace: r.namespace,
  agent: r.agent,
  runId: r.runId,
})

before(async () => {
  await createMissingSchema({ history: true })
  const summary = await seedDemo({ seed: 42, now: NOW })
  runs = summary.scenarioRuns
})

describe('timeline', () => {
  test('the batch run: 2 begins, 300 checkpoints, 1 clear, 1 complete, time-ordered, resume at v120→v121', async () => {
    const res = await call(routes.timeline, '/x', path(runs.batch))
    assert.equal(res.status, 200)
    const byKind: Record<string, number> = {}
    for (const e of res.body.events) byKind[e.kind] = (byKind[e.kind] ?? 0) + 1
    assert.equal(byKind['run.begin'], 2)
    assert.equal(byKind['checkpoint'], 300)
    assert.equal(byKind['checkpoint.cleared'], 1)
    assert.equal(byKind['run.complete'], 1)
    const times = res.body.events.map((e: { at: string }) => e.at)
    assert.deepEqual(times, [...times].sort())
    assert.equal(res.body.truncated, false)
    const resume = res.body.resumes.find((p: { reasons: string[] }) => p.reasons.includes('new-process'))
    assert.equal(resume.fromVersion, '120')
    assert.equal(resume.firstWrite.version, '121')
    assert.match(resume.firstWrite.summary, /item-121/)
  })

  test('a run with more events than the cap says it is truncated', async () => {
    // 10 050 turns in one run, generated inside ClickHouse.
    await command(`INSERT INTO ${tableNames().turns} (org, namespace, agent, user_id, session_id, conversation_id, run_id, turn_index, role, content, tool_name, input_tokens, output_tokens, cost_usd, created_at)
      SELECT 'big', 'prod', 'chatty', '', '', 'conv-big', 'run-big', number, 'assistant', concat('turn ', toString(number)), '', 10, 5, 0.0001,
        toDateTime64('2026-11-20 00:00:00', 3, 'UTC') + toIntervalMillisecond(number * 1000)
      FROM numbers(10050)`)
    const big = { org: 'big', namespace: 'prod', agent: 'chatty', runId: 'run-big' }
    const res = await call(routes.timeline, '/x?limit=5000', big)
    assert.equal(res.status, 200)
    assert.equal(res.body.events.length, 5000)
    assert.equal(res.body.total, 10050)
    assert.equal(res.body.truncated, true)
    const full = await call(routes.timeline, '/x', big)
    assert.equal(full.body.events.length, 10000)
    assert.equal(full.body.total, 10050)
    assert.equal(full.body.truncated, true)
    const bad = await call(routes.timeline, '/x?limit=0', big)
    assert.equal(bad.status, 400)
    assert.equal(bad.body.error.field, 'limit')
  })
})

describe('conversations, memories, searches, blobs', () => {
  test('turns come back ordered by turn_index even when inserted out of order', async () => {
    // The columns a conversation and its turns share.
    const conversation = { org: 'o', namespace: 'n', agent: 'a', user_id: '', session_id: '', run_id: 'r-order' }
    const created_at = '2026-11-20 00:00:00.000'
    const base = { ...conversation, conversation_id: 'c1', created_at }
    await insertRows(tableNames().conversations, [{ ...base, title: 'T' }])
    const turn = { ...base, tool_name: '', input_tokens: 0, output_tokens: 0, cost_usd: 0 }
    for (const i of [2, 0, 3, 1])
      await insertRows(tableNames().turns, [
        { ...turn, turn_index: i, role: i % 2 ? 'assistant' : 'user', content: `t${i}` },
      ])
    const res = await call(routes.conversations, '/x', { org: 'o', namespace: 'n', agent: 'a', runId: 'r-order' })
    assert.equal(res.status, 200)
    assert.deepEqual(
      res.body.conversations[0].turns.map((t: { content: string }) => t.content),
      ['t0', 't1', 't2', 't3'],
    )
  })

  test('the research reader: its own memories only, the ones it used, and who wrote them', async () => {
    const res = await call(routes.memories, '/x', path(runs.researchReader))
    assert.equal(res.status, 200)
    assert.deepEqual(
      res.body.written.map((m: { memoryKey: string }) => m.memoryKey),
      ['procurement.q3.recommendation', 'vendor.contoso.tier-2.price'],
    )
    assert.deepEqual(res.body.used, [
      'procurement.q3.budget-cap',
      'vendor.contoso.tier-2.price',
      'vendor.northwind.tier-2.price',
    ])
    const northwind = res.body.relied.find(
      (m: { memoryKey: string }) => m.memoryKey === 'vendor.northwind.tier-2.price',
    )
    assert.equal(northwind.writtenBy.runId, runs.researchWriter.runId)
  })

  test('searches: hits ranked with their scores, marked when the run used them', async () => {
    const res = await call(routes.searches, '/x', path(runs.researchReader))
    assert.equal(res.status, 200)
    assert.equal(res.body.searches.length, 2)
    const first = res.body.searches[0]
    assert.equal(first.query, 'tier-2 price per seat')
    assert.equal(first.mode, 'hybrid')
    assert.deepEqual(columns(first.hits, 'rank', 'memoryKey', 'score', 'usedByRun'), [
      [1, 'vendor.northwind.tier-2.price', 0.912, true],
      [2, 'vendor.contoso.tier-2.price', 0.874, true],
      [3, 'vendor.fabrikam.tier-2.price', 0.851, false],
      [4, 'procurement.q3.budget-cap', 0.418, true],
    ])
    assert.equal(first.hits[0].writtenBy.runId, runs.researchWriter.runId)
  })

  test('blobs: the offload run lists its blobs and the checkpoint versions pointing at them', async () => {
    const res = await call(routes.blobs, '/x', path(runs.blob))
    assert.equal(res.status, 200)
    assert.ok(res.body.blobs.length >= 1)
    assert.ok(res.body.blobs.some((b: { referencedBy: unknown[] }) => b.referencedBy.length > 0))
    const expired = await call(routes.blobs, '/x', path(runs.expiredBlob))
    assert.equal(expired.status, 200)
    const all = [...expired.body.blobs.filter((b: { expired: boolean }) => b.expired), ...expired.body.missing]
    assert.ok(all.length >= 1, 'the expired-blob run shows its blob as expired or missing')
  })

  test('export: one document with run, blocks, timeline, conversations, memories, searches, blobs, audit', async () => {
    const res = await call(routes.exportDoc, '/x', path(runs.operatorEdited))
    assert.equal(res.status, 200)
    for (const key of [
      'run',
      'counts',
      'blocks',
      'blockDetails',
      'timeline',
      'conversations',
      'memories',
      'searches',
      'blobs',
      'audit',
    ]) {
      assert.ok(key in res.body, `export has ${key}`)
    }
    assert.equal(res.body.run.runId, runs.operatorEdited.runId)
    assert.equal(res.body.audit.length, 1)
    assert.equal(res.body.audit[0].operator, 'alice')
  })

  test('unknown run → 404 on every story route', async () => {
    for (const h of Object.values(routes)) {
      const res = await call(h, '/x', { org: 'x', namespace: 'y', agent: 'z', runId: 'nope' })
      assert.equal(res.status, 404)
    }
  })
})
