/**
 * Every read route's answer for the seeded demo, as one JSON-able object: the runs list (pages,
 * filters), analytics, changes, and for every run its detail, blocks, each block's forensics,
 * timeline, conversations, memories, searches, blobs, audit and export. tests/schema-map.test.ts
 * compares two engines with it: one with the contract's names, one with renamed tables/columns.
 */
import { apiRoutes } from './api-routes'
import { call } from './routes'

/** Fields that depend on when or how the answer was produced, not on the data. */
const VOLATILE = new Set(['part', 'checkedAt', 'exportedAt', 'generatedAt', 'elapsedMs', 'asOf', 'serverTime', 'since'])

function scrub(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(scrub)
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value)
        .filter(([k]) => !VOLATILE.has(k))
        .map(([k, v]) => [k, scrub(v)]),
    )
  }
  return value
}

type RunRow = { org: string; namespace: string; agent: string; runId: string }

export async function routeSnapshot(since: string): Promise<Record<string, unknown>> {
  const r = apiRoutes
  const out: Record<string, unknown> = {}
  const get = async (
    name: string,
    handler: Parameters<typeof call>[0],
    url: string,
    params: Record<string, string> = {},
  ) => {
    const res = await call(handler, url, params)
    out[name] = { status: res.status, body: scrub(res.body) }
    return res
  }
  // Runs list: all pages of 7, and filters.
  const all: RunRow[] = []
  let cursor: string | null = null
  for (let page = 0; page < 50; page++) {
    const res = await get(
      `runs page ${page}`,
      r.runs,
      `/api/runs?limit=7${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
    )
    all.push(...res.body.runs)
    cursor = res.body.nextCursor
    if (!cursor) break
  }
  for (const q of [
    'status=failed',
    'status=unknown',
    'status=running',
    'agent=batch-indexer',
    'org=acme&namespace=prod',
    'q=report',
  ]) {
    await get(`runs ${q}`, r.runs, `/api/runs?${q}`)
    await get(`analytics ${q}`, r.analytics, `/api/runs/analytics?${q}`)
  }
  await get('analytics', r.analytics, '/api/runs/analytics')
  await get('changes', r.changes, `/api/runs/changes?since=${encodeURIComponent(since)}`)
  for (const run of all) {
    const p = { org: run.org, namespace: run.namespace, agent: run.agent, runId: run.runId }
    const id = `${run.org}/${run.namespace}/${run.agent}/${run.runId}`
    await get(`${id} run`, r.run, '/x', p)
    const blocks = await get(`${id} blocks`, r.blocks, '/x', p)
    for (const b of blocks.body.blocks ?? []) {
      const qs = `userId=${encodeURIComponent(b.userId)}&sessionId=${encodeURIComponent(b.sessionId)}`
      await get(`${id} block ${b.userId}/${b.sessionId}/${b.blockKey}`, r.block, `/x?${qs}`, {
        ...p,
        blockKey: b.blockKey,
      })
    }
    await get(`${id} timeline`, r.timeline, '/x', p)
    await get(`${id} conversations`, r.conversations, '/x', p)
    await get(`${id} memories`, r.memories, '/x', p)
    await get(`${id} searches`, r.searches, '/x', p)
    await get(`${id} blobs`, r.blobs, '/x', p)
    await get(`${id} audit`, r.audit, '/x', p)
    await get(`${id} export`, r.exportDoc, '/x', p)
  }
  out.runCount = all.length
  return out
}
