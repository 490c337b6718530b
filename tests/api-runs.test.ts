import assert from 'node:assert/strict'
import { before, describe, test } from 'node:test'
import { runBegin, runComplete } from '../lib/loom/runs'
import { wmSet } from '../lib/loom/working-memory'
import { z } from 'zod'
import { selectRows } from '../lib/clickhouse/query'
import { sql } from '../lib/clickhouse/sql'
import { ensureReady } from '../lib/server/ready'
import { GET as healthRoute } from '../app/api/health/route'
import { GET as runsRoute } from '../app/api/runs/route'
import { GET as runRoute } from '../app/api/runs/[org]/[namespace]/[agent]/[runId]/route'
import { GET as blocksRoute } from '../app/api/runs/[org]/[namespace]/[agent]/[runId]/blocks/route'
import { useFreshEngine } from './helpers/engine'
import { call } from './helpers/routes'

useFreshEngine('api-runs')

const SAME_START = new Date('2026-11-20T10:00:00.000Z')
const ORG = 'acme'
const NS = 'prod'

const routes = { runs: runsRoute, run: runRoute, blocks: blocksRoute, health: healthRoute }

before(async () => {
  await ensureReady()
  // 120 runs that share one start time: only the tie-breakers order them.
  for (let i = 0; i < 120; i++) {
    const agent = `agent-${i % 3}`
    const runId = `tie-${String(i).padStart(3, '0')}`
    await runBegin(
      { org: ORG, namespace: NS, agent, userId: '', sessionId: '', runId, goal: `tie run ${i}` },
      () => SAME_START,
    )
  }
  // Two checkpoint-only runs (no run.begin) and one with a finished run row and a checkpoint.
  const ctx = { actor: 'loner', sourceTrace: 'host-z/pid-1', now: () => new Date('2026-11-21T08:00:00.000Z') }
  await wmSet(
    {
      org: ORG,
      namespace: NS,
      agent: 'loner',
      userId: 'u1',
      sessionId: 's1',
      runId: 'cp-only-1',
      blockKey: 'checkpoint',
    },
    'a b c',
    ctx,
  )
  await wmSet(
    {
      org: 'globex',
      namespace: 'staging',
      agent: 'loner',
      userId: '',
      sessionId: '',
      runId: 'cp-only-2',
      blockKey: 'checkpoint',
    },
    'x',
    ctx,
  )
  const done = { org: ORG, namespace: NS, agent: 'finisher', userId: '', sessionId: '', runId: 'done-1' }
  await runBegin({ ...done, goal: 'Summarise invoices' }, () => new Date('2026-11-22T09:00:00.000Z'))
  await wmSet({ ...done, blockKey: 'checkpoint' }, 'item-1 item-2', {
    actor: 'finisher',
    sourceTrace: 'h/1',
    now: () => new Date('2026-11-22T09:01:00.000Z'),
  })
  await wmSet({ ...done, blockKey: 'notes' }, 'hello', {
    actor: 'finisher',
    sourceTrace: 'h/1',
    now: () => new Date('2026-11-22T09:01:00.000Z'),
  })
  await runComplete(
    { ...done, status: 'succeeded', reflection: { lesson: 'ok' }, turns: 3, costUsd: 0.25 },
    () => new Date('2026-11-22T09:05:00.000Z'),
  )
})

describe('GET /api/health', () => {
  test('reports embedded mode, the engine version and every table present', async () => {
    const res = await call(routes.health, '/api/health')
    assert.equal(res.status, 200)
    assert.equal(res.body.mode, 'embedded')
    assert.match(res.body.clickhouseVersion, /^\d+\.\d+/)
    assert.ok(res.body.schema.tables.length >= 8)
    assert.deepEqual(
      res.body.schema.tables.filter((t: { present: boolean }) => !t.present),
      [],
    )
  })

  test("counts the embedded engine's statements and busy time: two reads bracket what ran between them", async () => {
    const first = (await call(routes.health, '/api/health')).body.engine
    // A statement that holds the engine a measurable while (sleepEachRow blocks the engine itself).
    await selectRows(sql`SELECT sleepEachRow(0.05) AS s FROM numbers(4)`, z.object({ s: z.number() }))
    const second = (await call(routes.health, '/api/health')).body.engine
    // The first health read's own statements (2), then the sleep.
    assert.equal(second.statements - first.statements, 3)
    assert.ok(
      second.busyMs - first.busyMs >= 200,
      `busy ${second.busyMs - first.busyMs} ms, expected at least the 200 ms slept`,
    )
    const third = (await call(routes.health, '/api/health')).body.engine
    assert.equal(third.statements - second.statements, 2)
    assert.ok(third.busyMs - second.busyMs < 200)
  })
})

describe('GET /api/runs', () => {
  test('pages through 100+ runs sharing one start time: every run exactly once, in ORDER BY order', async () => {
    const seen: string[] = []
    let cursor: string | null = null
    let pages = 0
    do {
      const q: string = `/api/runs?org=${ORG}&limit=7${cursor ? `&cursor=${cursor}` : ''}`
      const res = await call(routes.runs, q)
      assert.equal(res.status, 200, JSON.stringify(res.body))
      for (const r of res.body.runs) seen.push(`${r.agent}/${r.runId}`)
      cursor = res.body.nextCursor
      pages++
    } while (cursor && pages < 100)
    const tieRuns = seen.filter((s) => s.includes('/tie-'))
    assert.equal(tieRuns.length, 120)
    assert.equal(new Set(seen).size, seen.length, 'no run appears twice')
    // 120 ties + cp-only-1 + done-1 under org acme
    assert.equal(seen.length, 122)
    assert.equal(seen[0], 'finisher/done-1')
    assert.equal(seen[1], 'loner/cp-only-1')
    // Within the tie, order is (org, namespace, agent, run_id) descending.
    assert.deepEqual(tieRuns, [...tieRuns].sort().reverse())
  })

  test('a checkpoint-only run has status unknown and the identity of its newest block', async () => {
    const res = await call(routes.runs, '/api/runs?status=unknown')
    assert.equal(res.status, 200)
    const ids = res.body.runs.map((r: { runId: string }) => r.runId).sort()
    assert.deepEqual(ids, ['cp-only-1', 'cp-only-2'])
    const one = res.body.runs.find((r: { runId: string }) => r.runId === 'cp-only-1')
    assert.equal(one.userId, 'u1')
    assert.equal(one.sessionId, 's1')
    assert.equal(one.attempt, 0)
    assert.deepEqual(
      {
        version: one.checkpoint.version,
        chars: one.checkpoint.chars,
        charLimit: one.checkpoint.charLimit,
        isDeleted: one.checkpoint.isDeleted,
      },
      { version: '1', chars: 5, charLimit: 4096, isDeleted: false },
    )
  })

  test('filters by status, agent, free text and time range', async () => {
    const ok = await call(routes.runs, '/api/runs?status=succeeded')
    assert.deepEqual(
      ok.body.runs.map((r: { runId: string }) => r.runId),
      ['done-1'],
    )
    assert.equal(ok.body.runs[0].durationMs, 5 * 60_000)
    assert.equal(ok.body.runs[0].costUsd, 0.25)
    assert.equal(ok.body.runs[0].turns, 3)
    const text = await call(routes.runs, '/api/runs?q=INVOICES')
    assert.deepEqual(
      text.body.runs.map((r: { runId: string }) => r.runId),
      ['done-1'],
    )
    const agent = await call(routes.runs, '/api/runs?agent=agent-1&limit=200')
    assert.equal(agent.body.runs.length, 40)
    const range = await call(routes.runs, '/api/runs?from=2026-11-21T00:00:00Z&to=2026-11-21T23:59:59Z')
    assert.deepEqual(range.body.runs.map((r: { runId: string }) => r.runId).sort(), ['cp-only-1', 'cp-only-2'])
  })

  const bad: [string, string][] = [
    ['/api/runs?limit=0', 'limit'],
    ['/api/runs?limit=201', 'limit'],
    ['/api/runs?limit=abc', 'limit'],
    ['/api/runs?status=exploded', 'status'],
    ['/api/runs?cursor=not-a-cursor', 'cursor'],
    ['/api/runs?cursor=eyJ4IjoxfQ', 'cursor'],
    ['/api/runs?from=yesterday', 'from'],
    ['/api/runs?from=2026-11-22T00:00:00Z&to=2026-11-21T00:00:00Z', 'from'],
    [`/api/runs?q=${'x'.repeat(201)}`, 'q'],
  ]
  for (const [url, field] of bad) {
    test(`400 naming ${field} for ${url.slice(0, 60)}`, async () => {
      const res = await call(routes.runs, url)
      assert.equal(res.status, 400)
      assert.equal(res.body.error.code, 'invalid')
      assert.equal(res.body.error.field, field)
      assert.match(res.body.error.message, new RegExp(field))
    })
  }
})

describe('GET R and R/blocks', () => {
  const done = { org: ORG, namespace: NS, agent: 'finisher', runId: 'done-1' }

  test('returns the run with reflection and counts', async () => {
    const res = await call(routes.run, '/x', done)
    assert.equal(res.status, 200)
    assert.equal(res.body.run.goal, 'Summarise invoices')
    assert.equal(res.body.run.status, 'succeeded')
    assert.equal(res.body.run.attempt, 1)
    assert.deepEqual(JSON.parse(res.body.run.reflection), { lesson: 'ok' })
    assert.equal(res.body.counts.blocks, 2)
    assert.ok(res.body.counts.versions >= 2)
    assert.equal(res.body.run.checkpoint.version, '1')
  })

  test('blocks: checkpoint first, versions as strings, chars counted', async () => {
    const res = await call(routes.blocks, '/x', done)
    assert.equal(res.status, 200)
    assert.deepEqual(
      res.body.blocks.map((b: { blockKey: string; version: string; chars: number }) => [
        b.blockKey,
        b.version,
        b.chars,
      ]),
      [
        ['checkpoint', '1', 13],
        ['notes', '1', 5],
      ],
    )
    assert.equal(res.body.blocks[0].actor, 'finisher')
    assert.equal(res.body.blocks[0].updatedAt, '2026-11-22T09:01:00.000Z')
  })

  test('a checkpoint-only run is served with status unknown', async () => {
    const res = await call(routes.run, '/x', { org: ORG, namespace: NS, agent: 'loner', runId: 'cp-only-1' })
    assert.equal(res.status, 200)
    assert.equal(res.body.run.status, 'unknown')
    assert.equal(res.body.run.hasRunRow, false)
  })

  test('unknown run is 404 with the contract error body', async () => {
    for (const handler of [routes.run, routes.blocks]) {
      const res = await call(handler, '/x', { ...done, runId: 'nope' })
      assert.equal(res.status, 404)
      assert.equal(res.body.error.code, 'not_found')
      assert.match(res.body.error.message, /nope/)
    }
  })

  test('an over-long path segment is 400 naming it', async () => {
    const res = await call(routes.run, '/x', { ...done, runId: 'r'.repeat(2000) })
    assert.equal(res.status, 400)
    assert.equal(res.body.error.field, 'runId')
  })
})

describe('GET /api/runs/csv', () => {
  test('the same runs as the list, in its order; a cap says it cut; a formula-like goal is defused; bad input is a 400', async () => {
    const { GET: csvRoute } = await import('../app/api/runs/csv/route')
    const listed: string[] = []
    let cursor: string | null = null
    do {
      const res = await call(routes.runs, `/api/runs?org=${ORG}&limit=50${cursor ? `&cursor=${cursor}` : ''}`)
      for (const r of res.body.runs) listed.push(`${r.agent},${r.runId}`)
      cursor = res.body.nextCursor
    } while (cursor)
    const all = await call(csvRoute, `/api/runs/csv?org=${ORG}`)
    assert.equal(all.status, 200)
    assert.match(all.headers['content-type'], /^text\/csv/)
    assert.match(all.headers['content-disposition'], /^attachment; filename="loom-runs-.*\.csv"$/)
    const lines = (all.body as string).split('\r\n').filter(Boolean)
    assert.equal(lines[0].split(',').slice(0, 4).join(','), 'org,namespace,agent,run_id')
    assert.deepEqual(
      lines.slice(1).map((l) => l.split(',').slice(2, 4).join(',')),
      listed,
    )
    assert.equal(all.headers['x-loom-runs-count'], String(listed.length))
    assert.equal(all.headers['x-loom-runs-truncated'], 'false')
    const done = lines.find((l) => l.includes(',done-1,'))!
    assert.match(done, /,succeeded,Summarise invoices,1,/)

    const cut = await call(csvRoute, `/api/runs/csv?org=${ORG}&limit=5`)
    assert.equal((cut.body as string).split('\r\n').filter(Boolean).length, 6)
    assert.equal(cut.headers['x-loom-runs-truncated'], 'true')

    await runBegin(
      {
        org: 'csv-org',
        namespace: NS,
        agent: 'a',
        userId: '',
        sessionId: '',
        runId: 'r1',
        goal: '=HYPERLINK("http://evil.example","x"), then more',
      },
      () => SAME_START,
    )
    const hostile = await call(csvRoute, '/api/runs/csv?org=csv-org')
    assert.match(hostile.body as string, /,"'=HYPERLINK\(""http:\/\/evil\.example"",""x""\), then more",/)

    const bad = await call(csvRoute, '/api/runs/csv?limit=0')
    assert.equal(bad.status, 400)
    assert.equal(bad.body.error.field, 'limit')
  })
})
