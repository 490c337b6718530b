import assert from 'node:assert/strict'
import { before, describe, test } from 'node:test'
import { z } from 'zod'
import { useFreshEngine } from './helpers/engine'
import { param, sql } from '../lib/clickhouse/sql'
import { historyCount } from './helpers/history-rows'
import { call } from './helpers/routes'
import * as q from '../lib/clickhouse/query'
import * as wm from '../lib/loom/working-memory'
import { runBegin, runComplete } from '../lib/loom/runs'
import { tableNames } from '../lib/loom/tables'
import { ensureReady } from '../lib/server/ready'
import * as block from '../app/api/runs/[org]/[namespace]/[agent]/[runId]/blocks/[blockKey]/route'
import { POST as restoreRoute } from '../app/api/runs/[org]/[namespace]/[agent]/[runId]/blocks/[blockKey]/restore/route'
import { GET as auditRoute } from '../app/api/runs/[org]/[namespace]/[agent]/[runId]/audit/route'
import { GET as listRoute } from '../app/api/runs/route'
import { GET as timelineRoute } from '../app/api/runs/[org]/[namespace]/[agent]/[runId]/timeline/route'
import { GET as healthRoute } from '../app/api/health/route'
import { GET as openApiRoute } from '../app/api/openapi.json/route'

useFreshEngine('api-writes')

const RUN = { org: 'acme', namespace: 'prod', agent: 'batch', runId: 'run-w1' }
const LIVE = { org: 'acme', namespace: 'prod', agent: 'batch', runId: 'run-live' }
const BLOCK = { ...RUN, blockKey: 'checkpoint' }
const REF = { ...BLOCK, userId: '', sessionId: '' }

const r = { get: block.GET, put: block.PUT, del: block.DELETE, restore: restoreRoute, audit: auditRoute }
let tables: ReturnType<typeof tableNames>

function rowCount(): Promise<number> {
  return historyCount(sql`org = ${param('org', 'String', 'acme')}`)
}

before(async () => {
  await ensureReady()
  tables = tableNames()
  const agent = { actor: 'batch', sourceTrace: 'host-a/pid-1' }
  await runBegin({ ...RUN, userId: '', sessionId: '', goal: 'batch' })
  for (const state of ['item-1', 'item-1 item-2', 'item-1 item-2 item-3'])
    await wm.wmSet(REF, state, agent, { charLimit: 100 })
  await runComplete({ ...RUN, status: 'failed' })
  // A run that is still going and checkpointed a moment ago.
  await runBegin({ ...LIVE, userId: '', sessionId: '', goal: 'live' })
  await wm.wmSet({ ...LIVE, blockKey: 'checkpoint', userId: '', sessionId: '' }, 'a', agent)
})

const put = (body: unknown, headers: Record<string, string> = {}, path: Record<string, string> = BLOCK) =>
  call(r.put, '/x', path, { method: 'PUT', body, headers })

describe('edit, clear, restore', () => {
  test('edit writes latest + 1 as operator:local, resume returns it, audit records it', async () => {
    const res = await put({ content: 'item-1 item-2', expectedVersion: '3', reason: 'redo item 3' })
    assert.equal(res.status, 200, JSON.stringify(res.body))
    assert.equal(res.body.block.version, '4')
    assert.equal(res.body.block.actor, 'operator:local')
    assert.match(res.body.block.sourceTrace, /^loom-runs-console@/)
    assert.equal(res.body.confirmed, true)
    assert.equal(await wm.wmGet(REF), 'item-1 item-2')
    const audit = await call(r.audit, '/x', RUN)
    assert.equal(audit.status, 200)
    assert.deepEqual(
      (({ operator, action, reason, beforeVersion, afterVersion, beforeContent, afterContent }) => ({
        operator,
        action,
        reason,
        beforeVersion,
        afterVersion,
        beforeContent,
        afterContent,
      }))(audit.body.entries[0]),
      {
        operator: 'local',
        action: 'edit',
        reason: 'redo item 3',
        beforeVersion: '3',
        afterVersion: '4',
        beforeContent: 'item-1 item-2 item-3',
        afterContent: 'item-1 item-2',
      },
    )
  })

  test('a stale expectedVersion is 409 with the current block, and writes nothing', async () => {
    const before = await rowCount()
    const res = await put({ content: 'zzz', expectedVersion: '3', reason: 'stale' })
    assert.equal(res.status, 409)
    assert.equal(res.body.error.code, 'conflict')
    assert.equal(res.body.current.version, '4')
    assert.equal(res.body.current.content, 'item-1 item-2')
    assert.equal(await rowCount(), before)
  })

  test('twenty concurrent edits from the same version: one succeeds, nineteen get 409, no tie', async () => {
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => put({ content: `race ${i}`, expectedVersion: '4', reason: `racer ${i}` })),
    )
    const statuses = results.map((x) => x.status).sort()
    assert.deepEqual(statuses, [200, ...Array(19).fill(409)])
    const winner = results.find((x) => x.status === 200)!
    assert.equal(winner.body.block.version, '5')
    assert.equal(await wm.wmGet(REF), winner.body.block.content)
    const ties = await q.queryRows(
      `SELECT version, count() AS n FROM ${tables.history} WHERE run_id = 'run-w1' AND block_key = 'checkpoint' GROUP BY version HAVING n > 1`,
      {},
      z.object({ version: z.string(), n: z.coerce.number() }),
    )
    assert.deepEqual(ties, [])
  })

  test('clear writes a tombstone: resume returns None', async () => {
    const res = await call(r.del, '/x', BLOCK, {
      method: 'DELETE',
      body: { expectedVersion: '5', reason: 'start over' },
    })
    assert.equal(res.status, 200, JSON.stringify(res.body))
    assert.equal(res.body.block.version, '6')
    assert.equal(res.body.block.isDeleted, true)
    assert.equal(res.body.block.content, '')
    assert.equal(await wm.wmGet(REF), null)
  })

  test('restore puts an earlier version back as a new version', async () => {
    const res = await call(r.restore, '/x', BLOCK, {
      method: 'POST',
      body: { version: '2', expectedVersion: '6', reason: 'back to v2' },
    })
    assert.equal(res.status, 200, JSON.stringify(res.body))
    assert.equal(res.body.block.version, '7')
    assert.equal(await wm.wmGet(REF), 'item-1 item-2')
    const audit = await call(r.audit, '/x', RUN)
    assert.deepEqual(
      audit.body.entries.map((e: { action: string }) => e.action),
      ['restore', 'clear', 'edit', 'edit'],
    )
    // v4 (an edit) holds the same content as v2: the restore is named by the version put back, not by a content match.
    assert.deepEqual(
      audit.body.entries.map((e: { restoredVersion: string | null }) => e.restoredVersion),
      ['2', null, null, null],
    )
    const detail = await call(r.get, '/x', BLOCK)
    const point = detail.body.resume.points.find((p: { reasons: string[] }) => p.reasons.includes('operator-restore'))
    assert.equal(point.restoredFrom, '2')
    assert.ok(detail.body.resume.mermaid.includes('restored v2 as v7'), detail.body.resume.mermaid)
    assert.ok(
      detail.body.resume.explanation.some((t: string) => t.includes('restored v2 as v7')),
      detail.body.resume.explanation.join('\n'),
    )
    const timeline = await call(timelineRoute, '/x', RUN)
    const restore = timeline.body.events.find(
      (e: { kind: string; ref: string }) => e.kind === 'operator' && e.ref === 'restore',
    )
    assert.equal(restore.label, 'local restores checkpoint v2 as v7: back to v2')
    // The timeline's own resume tags name the same version (not v4, whose content is the same).
    const tag = timeline.body.resumes.find((p: { reasons: string[] }) => p.reasons.includes('operator-restore'))
    assert.equal(tag.restoredFrom, '2')
  })

  test('restoring a tombstone is 400; restoring an unknown version is 404', async () => {
    const tomb = await call(r.restore, '/x', BLOCK, {
      method: 'POST',
      body: { version: '6', expectedVersion: '7', reason: 'x' },
    })
    assert.equal(tomb.status, 400)
    assert.equal(tomb.body.error.field, 'version')
    const missing = await call(r.restore, '/x', BLOCK, {
      method: 'POST',
      body: { version: '999', expectedVersion: '7', reason: 'x' },
    })
    assert.equal(missing.status, 404)
  })
})

describe('refusals change nothing', () => {
  const cases: [string, unknown, number, string | undefined][] = [
    ['content over char_limit', { content: 'x'.repeat(101), expectedVersion: '7', reason: 'big' }, 413, undefined],
    ['missing reason', { content: 'a', expectedVersion: '7' }, 400, 'reason'],
    ['empty reason', { content: 'a', expectedVersion: '7', reason: '   ' }, 400, 'reason'],
    ['version not a number', { content: 'a', expectedVersion: 'seven', reason: 'r' }, 400, 'expectedVersion'],
    ['negative version', { content: 'a', expectedVersion: '-1', reason: 'r' }, 400, 'expectedVersion'],
    [
      'version over UInt64',
      { content: 'a', expectedVersion: '18446744073709551616', reason: 'r' },
      400,
      'expectedVersion',
    ],
    ['unknown field', { content: 'a', expectedVersion: '7', reason: 'r', sneaky: 1 }, 400, 'sneaky'],
    ['content not a string', { content: 42, expectedVersion: '7', reason: 'r' }, 400, 'content'],
    ['body not an object', [1, 2], 400, 'body'],
    ['malformed JSON', '{"content": ', 400, 'body'],
    ['body over the cap', { content: 'x'.repeat(300_000), expectedVersion: '7', reason: 'r' }, 413, undefined],
  ]
  for (const [name, body, status, field] of cases) {
    test(`${name} → ${status}`, async () => {
      const before = await rowCount()
      const res = await put(body)
      assert.equal(res.status, status, JSON.stringify(res.body))
      assert.ok(res.body.error.message.length > 0)
      if (field) assert.equal(res.body.error.field, field)
      assert.equal(await rowCount(), before)
      assert.equal(await wm.wmGet(REF), 'item-1 item-2')
    })
  }

  test('unknown run or block → 404', async () => {
    const run = await put({ content: 'a', expectedVersion: '1', reason: 'r' }, {}, { ...BLOCK, runId: 'nope' })
    assert.equal(run.status, 404)
    const block = await put({ content: 'a', expectedVersion: '1', reason: 'r' }, {}, { ...BLOCK, blockKey: 'nope' })
    assert.equal(block.status, 404)
  })

  test('a read the browser marks cross-site → 403; the health check and the OpenAPI document answer anyone', async () => {
    const crossSite = { 'sec-fetch-site': 'cross-site' }
    const read = await call(listRoute, '/api/runs', {}, { headers: crossSite })
    assert.equal(read.status, 403)
    assert.match(read.body.error.message, /Cross-site request refused/)
    assert.equal((await call(listRoute, '/api/runs', {}, { headers: { 'sec-fetch-site': 'same-origin' } })).status, 200)
    assert.equal((await call(healthRoute, '/api/health', {}, { headers: crossSite })).status, 200)
    assert.equal((await call(openApiRoute, '/api/openapi.json', {}, { headers: crossSite })).status, 200)
  })

  test('cross-origin write → 403', async () => {
    const res = await put({ content: 'a', expectedVersion: '7', reason: 'r' }, { origin: 'http://evil.example' })
    assert.equal(res.status, 403)
    const site = await put({ content: 'a', expectedVersion: '7', reason: 'r' }, { 'sec-fetch-site': 'cross-site' })
    assert.equal(site.status, 403)
    // The console's own host and port under the other scheme is another origin.
    const scheme = await put({ content: 'a', expectedVersion: '7', reason: 'r' }, { origin: 'https://127.0.0.1:3000' })
    assert.equal(scheme.status, 403)
    assert.match(scheme.body.error.message, /scheme, host and port/)
    assert.equal(await wm.wmGet(REF), 'item-1 item-2')
  })

  test('a running run with a fresh checkpoint → 409 unless force', async () => {
    const live = { ...LIVE, blockKey: 'checkpoint' }
    const refused = await put({ content: 'b', expectedVersion: '1', reason: 'r' }, {}, live)
    assert.equal(refused.status, 409)
    assert.equal(refused.body.error.code, 'run_active')
    assert.equal(await wm.wmGet({ ...live, userId: '', sessionId: '' }), 'a')
    const forced = await put({ content: 'b', expectedVersion: '1', reason: 'r', force: true }, {}, live)
    assert.equal(forced.status, 200)
    assert.equal(await wm.wmGet({ ...live, userId: '', sessionId: '' }), 'b')
  })
})
