import { expect, test } from '@playwright/test'
import { DEMO_RUNS, EDGE_CASE } from '../lib/demo/scenarios'
import { encodeSegment } from '../lib/links'

const runPath = (r: { org: string; namespace: string; agent: string; runId: string }) =>
  `/api/runs/${[r.org, r.namespace, r.agent, r.runId].map(encodeSegment).join('/')}`

test('a run id with /, %, quotes, a space and non-ASCII round-trips through the URL', async ({ request }) => {
  const res = await request.get(runPath(EDGE_CASE))
  expect(res.status()).toBe(200)
  const body = await res.json()
  expect(body.run.runId).toBe(EDGE_CASE.runId)
  expect(body.run.agent).toBe('edge-cases')
  const blocks = await request.get(`${runPath(EDGE_CASE)}/blocks`)
  expect(blocks.status()).toBe(200)
  const list = await request.get(`/api/runs?agent=edge-cases`)
  const ids = (await list.json()).runs.map((r: { runId: string }) => r.runId)
  expect(ids).toContain(EDGE_CASE.runId)
})

test('the runs list and run routes answer with the contract fields', async ({ request }) => {
  const res = await request.get('/api/runs?limit=5')
  expect(res.status()).toBe(200)
  const body = await res.json()
  expect(body.runs).toHaveLength(5)
  expect(typeof body.nextCursor).toBe('string')
  for (const key of [
    'org',
    'namespace',
    'agent',
    'runId',
    'userId',
    'sessionId',
    'goal',
    'status',
    'attempt',
    'startedAt',
    'completedAt',
    'durationMs',
    'turns',
    'costUsd',
    'checkpoint',
  ]) {
    expect(body.runs[0]).toHaveProperty(key)
  }
  const batch = await (await request.get(runPath(DEMO_RUNS.batch))).json()
  expect(batch.run.attempt).toBe(2)
  expect(batch.run.status).toBe('succeeded')
  expect(batch.counts.blocks).toBeGreaterThanOrEqual(1)
})

test('errors use the contract body: 400 names the field, 404 for an unknown run', async ({ request }) => {
  const bad = await request.get('/api/runs?limit=9999')
  expect(bad.status()).toBe(400)
  expect((await bad.json()).error).toMatchObject({ code: 'invalid', field: 'limit' })
  const missing = await request.get(runPath({ ...DEMO_RUNS.batch, runId: 'no-such-run' }))
  expect(missing.status()).toBe(404)
  expect((await missing.json()).error.code).toBe('not_found')
})
