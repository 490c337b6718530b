import assert from 'node:assert/strict'
import { createHash } from 'node:crypto'
import { before, describe, test } from 'node:test'
import { useFreshEngine } from './helpers/engine'
import { assertRefused, call } from './helpers/routes'
import { AS_OF, T0, T1, T2, checkpointRuns } from './helpers/batch-runs'
import * as wm from '../lib/loom/working-memory'
import { ensureReady } from '../lib/server/ready'
import { GET as list, POST as post } from '../app/api/batches/route'
import { GET as one } from '../app/api/batches/[batchId]/route'
import { POST as undo } from '../app/api/batches/[batchId]/undo/route'
import * as contract from '../lib/endpoints/batches'
import { eventsResponse } from '../lib/endpoints/runs'
import { GET as events } from '../app/api/events/route'
import { PUT as single } from '../app/api/runs/[org]/[namespace]/[agent]/[runId]/blocks/[blockKey]/route'
import { GET as audit } from '../app/api/runs/[org]/[namespace]/[agent]/[runId]/audit/route'

useFreshEngine('batch-undo')

type Item = {
  runId: string
  action: string
  why?: string
  outcome?: string
  fromVersion: string | null
  toVersion: string | null
  newVersion?: string | null
  contentHash?: string | null
  fromDeleted?: boolean
}

const ORG = 'undo'
const NS = 'ns'
const AGENT = 'ag'
const ORIGIN = { origin: 'http://127.0.0.1:3000' }
const { ref, seed } = checkpointRuns(ORG, NS, AGENT)
const byRun = (items: Item[]) => Object.fromEntries(items.map((i) => [i.runId, i]))
const sha = (text: string) => `sha256:${createHash('sha256').update(text).digest('hex')}`
const batch = (body: unknown) => call(post, '/api/batches', {}, { method: 'POST', body, headers: ORIGIN })
const undoOf = (batchId: string, body: unknown, headers: Record<string, string> = ORIGIN) =>
  call(undo, `/api/batches/${batchId}/undo`, { batchId }, { method: 'POST', body, headers })
const recent = async () =>
  (await call(list, '/api/batches')).body.batches as {
    batchId: string
    action: string
    undoneBy: string | null
    undoes: string | null
    counts: Record<string, number>
    reason: string
    actor: string
    filter: Record<string, unknown>
  }[]

let batchId = ''

before(async () => {
  await ensureReady()
  // u1: three live versions; the batch puts version 2 back.
  await seed('u1', [
    ['a', T0],
    ['a b', T1],
    ['a b c', T2],
  ])
  // u2: cleared by the agent; the batch restores over the tombstone, so undo clears again.
  await seed('u2', [
    ['x', T0],
    [null, T2],
  ])
  // u3: no checkpoint, never written.
  await seed('u3')
  // u4: written by the batch, then moved on by its agent: undo must leave it alone.
  await seed('u4', [
    ['p', T0],
    ['p q', T2],
  ])
  const body = {
    filter: { org: ORG, namespace: NS },
    action: 'restore',
    before: AS_OF,
    reason: 'back before the bad deploy',
  }
  const preview = await batch({ ...body, dryRun: true })
  assert.equal(preview.status, 200, JSON.stringify(preview.body))
  const res = await batch({ ...body, dryRun: false, token: preview.body.token })
  assert.equal(res.status, 200, JSON.stringify(res.body))
  assert.equal(res.body.warning, undefined)
  batchId = res.body.batchId
  await wm.wmSet(ref('u4'), 'p q r', { actor: AGENT, sourceTrace: 'host-a/pid-2' })
})

describe('batches are kept', () => {
  test('GET /api/batches lists the batch with its actor, reason, filter and counts', async () => {
    contract.batchesResponse.parse((await call(list, '/api/batches')).body)
    const b = (await recent()).find((x) => x.batchId === batchId)
    assert.ok(b, 'the batch is listed')
    assert.equal(b.action, 'restore')
    assert.equal(b.actor, 'local')
    assert.equal(b.reason, 'back before the bad deploy')
    assert.deepEqual(b.filter, { org: ORG, namespace: NS })
    assert.deepEqual(b.counts, { done: 3, conflict: 0, skipped: 1, error: 0 })
    assert.equal(b.undoneBy, null)
    assert.equal(b.undoes, null)
  })

  test('GET /api/batches/{id}: each item with the versions it read and wrote and a hash of the content', async () => {
    const res = await call(one, `/api/batches/${batchId}`, { batchId })
    assert.equal(res.status, 200, JSON.stringify(res.body))
    contract.batchDetail.parse(res.body)
    assert.equal(res.body.request.before, AS_OF)
    const items = byRun(res.body.items)
    assert.deepEqual(
      Object.fromEntries(
        Object.entries(items).map(([k, v]) => [k, [v.fromVersion, v.toVersion, v.newVersion, v.outcome]]),
      ),
      {
        u1: ['3', '2', '4', 'done'],
        u2: ['2', '1', '3', 'done'],
        u3: [null, null, null, 'skipped'],
        u4: ['2', '1', '3', 'done'],
      },
    )
    assert.equal(items.u1.contentHash, sha('a b'))
    assert.equal(items.u2.contentHash, sha('x'))
    assert.equal(items.u2.fromDeleted, true)
    assert.equal(items.u3.contentHash, null)
  })

  test('unknown or malformed batch ids and bad list limits are refused by name', async () => {
    const missing = '00000000-0000-4000-8000-000000000000'
    assert.equal((await call(one, '/x', { batchId: missing })).status, 404)
    assert.equal((await undoOf(missing, { dryRun: true })).status, 404)
    assertRefused(await call(one, '/x', { batchId: 'nope' }), 'batchId')
    assertRefused(await call(list, '/api/batches?limit=0'), 'limit')
  })
})

describe('undo', () => {
  let undoId = ''

  test('dry run: written blocks go back to their pre-batch content; a moved block is a conflict; the rest are skipped', async () => {
    const res = await undoOf(batchId, { dryRun: true })
    assert.equal(res.status, 200, JSON.stringify(res.body))
    contract.undoResponse.parse(res.body)
    assert.equal(res.body.batch.batchId, batchId)
    const items = byRun(res.body.items)
    assert.deepEqual(
      Object.fromEntries(Object.entries(items).map(([k, v]) => [k, [v.action, v.fromVersion, v.toVersion]])),
      { u1: ['restore', '4', '3'], u2: ['clear', '3', null], u3: ['skip', null, null], u4: ['skip', '4', null] },
    )
    assert.match(items.u4.why!, /^moved: the batch wrote version 3, the block is at 4 now/)
    assert.match(items.u3.why!, /not written by the batch/)
    // Nothing was written by the dry run.
    assert.equal(await wm.wmGet(ref('u1')), 'a b')
  })

  test('refusals: no reason, no token, a token of another preview, a viewer-less origin', async () => {
    assertRefused(await undoOf(batchId, { dryRun: false, token: 'x' }), 'reason')
    assertRefused(await undoOf(batchId, { dryRun: true, why: 'x' }), 'why')
    assertRefused(await undoOf(batchId, { dryRun: false, token: 'abc.def', reason: 'r' }), 'token', 409)
    // A batch preview's token does not prove an undo.
    const other = await batch({ filter: { org: ORG, namespace: NS }, action: 'clear', dryRun: true })
    const wrong = await undoOf(batchId, { dryRun: false, token: other.body.token, reason: 'r' })
    assert.equal(wrong.status, 409)
    const cross = await undoOf(batchId, { dryRun: true }, { origin: 'https://evil.example' })
    assert.equal(cross.status, 403)
    assert.equal(await wm.wmGet(ref('u1')), 'a b')
  })

  test('run: contents come back as new versions, the moved block is untouched, and the undo is kept and audited', async () => {
    const preview = await undoOf(batchId, { dryRun: true })
    const res = await undoOf(batchId, { dryRun: false, token: preview.body.token, reason: 'the restore was wrong' })
    assert.equal(res.status, 200, JSON.stringify(res.body))
    contract.undoResponse.parse(res.body)
    undoId = res.body.batchId
    assert.equal(res.body.undoes, batchId)
    const items = byRun(res.body.items)
    assert.deepEqual(
      Object.fromEntries(Object.entries(items).map(([k, v]) => [k, [v.outcome, v.newVersion ?? null]])),
      { u1: ['done', '5'], u2: ['done', '4'], u3: ['skipped', null], u4: ['conflict', null] },
    )
    assert.equal(await wm.wmGet(ref('u1')), 'a b c')
    assert.equal(await wm.wmGet(ref('u2')), null)
    assert.equal(await wm.wmGet(ref('u4')), 'p q r')
    const kept = await recent()
    assert.equal(kept[0].batchId, undoId)
    assert.equal(kept[0].action, 'undo')
    assert.equal(kept[0].undoes, batchId)
    assert.deepEqual(kept[0].counts, { done: 2, conflict: 1, skipped: 1, error: 0 })
    assert.equal(kept.find((b) => b.batchId === batchId)?.undoneBy, undoId)
    const auditRes = await call(audit, '/x', { org: ORG, namespace: NS, agent: AGENT, runId: 'u1' })
    assert.equal(auditRes.status, 200, JSON.stringify(auditRes.body))
    const entries = auditRes.body.entries
    assert.equal(entries[0].batchId, undoId)
    // The audit names the undo together with the batch it took back.
    assert.equal(entries[0].undoes, batchId)
    assert.equal(entries[1].undoes, null)
    assert.equal(entries[0].reason, 'the restore was wrong')
    assert.equal(entries[0].action, 'restore')
    assert.equal(entries[1].batchId, batchId)
  })

  test('undoing the same batch again finds every block moved: conflicts, nothing written', async () => {
    const preview = await undoOf(batchId, { dryRun: true })
    assert.deepEqual(
      preview.body.items.filter((i: Item) => i.action !== 'skip'),
      [],
    )
    const res = await undoOf(batchId, { dryRun: false, token: preview.body.token, reason: 'twice' })
    assert.deepEqual(res.body.items.map((i: Item) => i.outcome).sort(), ['conflict', 'conflict', 'conflict', 'skipped'])
    assert.equal(await wm.wmGet(ref('u1')), 'a b c')
  })

  test('an undo can itself be undone: the batch content comes back', async () => {
    const preview = await undoOf(undoId, { dryRun: true })
    const items = byRun(preview.body.items)
    assert.deepEqual([items.u1.action, items.u1.toVersion], ['restore', '4'])
    assert.deepEqual([items.u2.action, items.u2.toVersion], ['restore', '3'])
    const res = await undoOf(undoId, { dryRun: false, token: preview.body.token, reason: 'it was right after all' })
    assert.equal(res.status, 200, JSON.stringify(res.body))
    assert.equal(await wm.wmGet(ref('u1')), 'a b')
    assert.equal(await wm.wmGet(ref('u2')), 'x')
  })
})

describe('what changed: GET /api/events', () => {
  type Ev = {
    at: string
    kind: string
    actor: string
    runKey?: string
    batchId?: string
    summary: string
    href?: string
  }
  const get = async (qs = '') => {
    const res = await call(events, `/api/events${qs}`)
    assert.equal(res.status, 200, JSON.stringify(res.body))
    eventsResponse.parse(res.body)
    return res.body.events as Ev[]
  }

  test('batches, undos, single writes and setup runs, newest first; a batch is one event, not one per write', async () => {
    const put = await call(
      single,
      '/x',
      { org: ORG, namespace: NS, agent: AGENT, runId: 'u1', blockKey: 'checkpoint' },
      { method: 'PUT', body: { content: 'a b c d', expectedVersion: '6', reason: 'by hand' }, headers: ORIGIN },
    )
    assert.equal(put.status, 200, JSON.stringify(put.body))
    const all = await get()
    for (let i = 1; i < all.length; i++) assert.ok(all[i - 1].at >= all[i].at, 'newest first')
    const write = all.find((e) => e.kind === 'write')
    assert.ok(write, 'the single write is an event')
    assert.equal(write.runKey, `${ORG}/${NS}/${AGENT}/u1`)
    assert.match(write.summary, /^local edited checkpoint of u1 \(v6 → v7\): by hand$/)
    const batchEvent = all.find((e) => e.batchId === batchId)
    assert.equal(batchEvent?.kind, 'batch')
    assert.match(batchEvent!.summary, /restored checkpoint in a batch: 3 runs written of 4: back before the bad deploy/)
    assert.equal(all.filter((e) => e.kind === 'undo').length, 3)
    assert.ok(
      all.some((e) => e.kind === 'setup' && /^first start by /.test(e.summary)),
      'the first start is a setup event',
    )
    // The batch writes are not events of their own.
    assert.equal(all.filter((e) => e.kind === 'write').length, 1, JSON.stringify(all.filter((e) => e.kind === 'write')))
  })

  test('scoped by org, namespace and agent (a batch by its items), and by time', async () => {
    const other = await get('?org=somebody-else')
    assert.deepEqual(
      other.filter((e) => e.kind !== 'setup'),
      [],
    )
    const mine = await get(`?org=${ORG}&namespace=${NS}&agent=${AGENT}`)
    assert.ok(mine.some((e) => e.batchId === batchId))
    const future = await get(`?from=${encodeURIComponent(new Date(Date.now() + 3_600_000).toISOString())}`)
    assert.deepEqual(future, [])
    assertRefused(await call(events, '/api/events?from=yesterday'), 'from')
    assertRefused(await call(events, '/api/events?runId=u1'), 'runId')
  })
})
