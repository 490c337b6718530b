import assert from 'node:assert/strict'
import { before, describe, test } from 'node:test'
import { z } from 'zod'
import * as q from '../lib/clickhouse/query'
import { runBegin, runComplete } from '../lib/loom/runs'
import { tableNames } from '../lib/loom/tables'
import * as wm from '../lib/loom/working-memory'
import * as cache from '../lib/server/read-cache'
import { ensureReady } from '../lib/server/ready'
import { useFreshEngine } from './helpers/engine'
import { call } from './helpers/routes'
import { apiRoutes as routes } from './helpers/api-routes'
import { statementsSent } from './helpers/statements'

useFreshEngine('shared-reads')

const RUN = { org: 'acme', namespace: 'prod', agent: 'batch', runId: 'run-s1' }
const OTHER = { org: 'globex', namespace: 'prod', agent: 'batch', runId: 'run-s2' }
const BLOCK = { ...RUN, blockKey: 'checkpoint' }

before(async () => {
  await ensureReady()
  const agent = { actor: 'batch', sourceTrace: 'host-a/pid-1' }
  for (const r of [RUN, OTHER]) {
    await runBegin({ ...r, userId: '', sessionId: '', goal: `goal of ${r.runId}` })
    await wm.wmSet({ ...r, blockKey: 'checkpoint', userId: '', sessionId: '' }, 'item-1', agent)
    await runComplete({ ...r, status: r === RUN ? 'failed' : 'succeeded' })
  }
})

describe('single flight in the query layer', () => {
  test('N identical concurrent reads send one statement; other parameters send their own', async () => {
    const schema = z.object({ n: z.coerce.number() })
    const sql = 'SELECT {n:UInt32} + sleepEachRow(0.05) AS n FROM numbers(1)'
    const { result, sent } = await statementsSent(() =>
      Promise.all([
        ...Array.from({ length: 8 }, () => q.queryRows(sql, { n: 1 }, schema)),
        q.queryRows(sql, { n: 2 }, schema),
      ]),
    )
    assert.deepEqual(
      result.map((rows) => rows[0].n),
      [1, 1, 1, 1, 1, 1, 1, 1, 2],
    )
    assert.equal(sent.length, 2, 'one statement per distinct parameter set')
  })

  test('a caller that goes away does not fail the others sharing its statement', async () => {
    const schema = z.object({ n: z.coerce.number() })
    const sql = 'SELECT {n:UInt32} + sleepEachRow(0.1) AS n FROM numbers(1)'
    const leaving = new AbortController()
    const first = q.queryRows(sql, { n: 3 }, schema, { signal: leaving.signal })
    const second = q.queryRows(sql, { n: 3 }, schema)
    leaving.abort()
    await assert.rejects(first, (err: { details?: { aborted?: boolean } }) => err.details?.aborted === true)
    assert.deepEqual(await second, [{ n: 3 }])
  })

  test('a read that starts after a write never joins one that started before it', async () => {
    const t = tableNames()
    const schema = z.object({ n: z.coerce.number() })
    const sql = `SELECT count() AS n FROM ${t.runs} WHERE org = {org:String}`
    const before = q.queryRows(sql, { org: 'initech' }, schema)
    await runBegin({
      org: 'initech',
      namespace: 'prod',
      agent: 'a',
      runId: 'r-1',
      userId: '',
      sessionId: '',
      goal: 'g',
    })
    const after = await q.queryRows(sql, { org: 'initech' }, schema)
    await before
    assert.equal(after[0].n, 1)
  })
})

describe('shared answers for the list, analytics and run header', () => {
  const cases = [
    { name: 'GET /api/runs', go: () => call(routes.runs, '/api/runs?status=failed') },
    { name: 'GET /api/runs/analytics', go: () => call(routes.analytics, '/api/runs/analytics?org=acme') },
    { name: 'GET run', go: () => call(routes.run, '/x', RUN) },
  ]
  for (const c of cases) {
    test(`${c.name}: N identical concurrent requests cost what one does, then are served kept`, async () => {
      await c.go() // first use: lookups kept per process (schema presence, the run index) happen here
      cache.invalidateReadCache()
      const one = await statementsSent(() => c.go())
      assert.equal(one.result.status, 200, JSON.stringify(one.result.body))
      assert.ok(one.sent.length >= 1)
      cache.invalidateReadCache()
      const many = await statementsSent(() => Promise.all(Array.from({ length: 10 }, () => c.go())))
      assert.equal(many.sent.length, one.sent.length, 'ten requests, the statements of one')
      for (const r of many.result) assert.deepEqual(r.body, one.result.body)
      const again = await statementsSent(() => c.go())
      assert.equal(again.sent.length, 0, 'answered from the kept result')
      assert.equal(again.result.headers['x-loom-cache'], 'hit')
      // One computed it; the others joined it, or (waiting for their turn within the viewer's read budget) found it kept.
      assert.equal(many.result.filter((r) => r.headers['x-loom-cache'] === 'computed').length, 1)
      assert.ok(many.result.every((r) => ['computed', 'joined', 'hit'].includes(r.headers['x-loom-cache'])))
      assert.deepEqual(again.result.body, one.result.body)
    })
  }

  test('different parameters are not shared', async () => {
    cache.invalidateReadCache()
    const { result, sent } = await statementsSent(() =>
      Promise.all([
        call(routes.runs, '/api/runs?status=failed'),
        call(routes.runs, '/api/runs?status=succeeded'),
        call(routes.run, '/x', RUN),
        call(routes.run, '/x', OTHER),
      ]),
    )
    const [failed, succeeded, a, b] = result
    assert.deepEqual(
      failed.body.runs.map((r: { runId: string }) => r.runId),
      [RUN.runId],
    )
    assert.deepEqual(
      succeeded.body.runs.map((r: { runId: string }) => r.runId),
      [OTHER.runId],
    )
    assert.equal(a.body.run.runId, RUN.runId)
    assert.equal(b.body.run.runId, OTHER.runId)
    assert.ok(sent.length >= 4)
    // The same filter spelled in another order is the same request.
    const same = await statementsSent(() => call(routes.runs, '/api/runs?limit=50&status=failed'))
    assert.equal(same.sent.length, 0)
  })

  test('a console write drops the kept list and run so the next read shows the new version', async () => {
    const list = async () =>
      (await call(routes.runs, `/api/runs?org=${RUN.org}`)).body.runs[0].checkpoint.version as string
    const detail = async () => (await call(routes.run, '/x', RUN)).body.run.checkpoint.version as string
    const v0 = await list()
    assert.equal(await detail(), v0)
    assert.equal((await statementsSent(() => list())).sent.length, 0, 'kept')
    const res = await call(routes.put, '/x', BLOCK, {
      method: 'PUT',
      body: { content: 'item-1 item-2', expectedVersion: v0, reason: 'test' },
    })
    assert.equal(res.status, 200, JSON.stringify(res.body))
    const v1 = res.body.block.version as string
    assert.notEqual(v1, v0)
    assert.equal(await list(), v1)
    assert.equal(await detail(), v1)
  })

  test('a write keeps the headers of other runs, and drops every list', async () => {
    cache.invalidateReadCache() // everything below is computed now, well within its time to live
    await call(routes.run, '/x', OTHER)
    await call(routes.runs, '/api/runs?status=succeeded')
    await wm.wmSet({ ...RUN, blockKey: 'notes', userId: '', sessionId: '' }, 'a note', {
      actor: 'batch',
      sourceTrace: 'host-a/pid-1',
    })
    assert.equal((await statementsSent(() => call(routes.run, '/x', OTHER))).sent.length, 0, 'another run: still kept')
    assert.ok(
      (await statementsSent(() => call(routes.runs, '/api/runs?status=succeeded'))).sent.length > 0,
      'lists: read again',
    )
    assert.ok((await statementsSent(() => call(routes.run, '/x', RUN))).sent.length > 0, 'the written run: read again')
  })

  test('the change poll drops kept answers when it sees a newer write than before', async () => {
    await call(routes.runs, '/api/runs?status=failed')
    const before = cache.readCacheStats().invalidations
    const since = new Date(Date.now() - 3_600_000).toISOString()
    const poll = await call(routes.changes, `/api/runs/changes?since=${encodeURIComponent(since)}`)
    assert.equal(poll.status, 200)
    assert.ok(poll.body.runs.length > 0)
    assert.ok(cache.readCacheStats().invalidations > before)
    const after = await statementsSent(() => call(routes.runs, '/api/runs?status=failed'))
    assert.ok(after.sent.length > 0, 'read again')
    // The same watermark seen again drops nothing.
    const n = cache.readCacheStats().invalidations
    await call(routes.changes, `/api/runs/changes?since=${encodeURIComponent(since)}`)
    assert.equal(cache.readCacheStats().invalidations, n)
  })

  test('kept answers hold data only: nothing about who asked', async () => {
    const bodies = [
      (await call(routes.runs, '/api/runs')).body,
      (await call(routes.run, '/x', RUN)).body,
      (await call(routes.analytics, '/api/runs/analytics')).body,
    ]
    for (const b of bodies) assert.doesNotMatch(JSON.stringify(b), /canWrite|"user"|"role"|readOnly/)
  })
})

describe('the read cache itself', () => {
  test('keeps at most its bound of answers', async () => {
    cache.invalidateReadCache()
    const n = cache.READ_CACHE_MAX_ENTRIES + 50
    for (let i = 0; i < n; i++) await cache.cachedRead('runs.list', { q: `bound-${i}` }, undefined, async () => i)
    assert.ok(cache.readCacheStats().entries <= cache.READ_CACHE_MAX_ENTRIES)
    // The newest are still kept.
    assert.equal(await cache.cachedRead('runs.list', { q: `bound-${n - 1}` }, undefined, async () => -1), n - 1)
  })

  test('a shared computation is cancelled only when every caller has gone away', async () => {
    cache.invalidateReadCache()
    let seen: AbortSignal | null = null
    const compute = (signal: AbortSignal) => {
      seen = signal
      return new Promise<number>((resolve, reject) => {
        const t = setTimeout(() => resolve(7), 200)
        signal.addEventListener('abort', () => {
          clearTimeout(t)
          reject(new Error('aborted'))
        })
      })
    }
    const a = new AbortController()
    const b = new AbortController()
    const first = cache.cachedRead('runs.analytics', { q: 'abort' }, a.signal, compute)
    const second = cache.cachedRead('runs.analytics', { q: 'abort' }, b.signal, compute)
    a.abort()
    await assert.rejects(first)
    assert.equal(seen!.aborted, false, 'the other caller still waits')
    b.abort()
    await assert.rejects(second)
    assert.equal(seen!.aborted, true)
  })
})
