import assert from 'node:assert/strict'
import { before, describe, test } from 'node:test'
import { command } from '../lib/clickhouse/query'
import { insertRows } from '../lib/loom/insert'
import { runBegin } from '../lib/loom/runs'
import { tableNames } from '../lib/loom/tables'
import * as wm from '../lib/loom/working-memory'
import { ensureReady } from '../lib/server/ready'
import { GET } from '../app/api/runs/[org]/[namespace]/[agent]/[runId]/blocks/[blockKey]/route'
import { useFreshEngine } from './helpers/engine'
import { call, columns } from './helpers/routes'

useFreshEngine('block-detail')

const RUN = { org: 'acme', namespace: 'prod', agent: 'batch', runId: 'run-bd' }
const REF = { ...RUN, userId: 'u1', sessionId: 's1', blockKey: 'checkpoint' }
const PATH = { ...RUN, blockKey: 'checkpoint' }
const T0 = Date.parse('2026-11-20T10:00:00.000Z')
const at = (s: number) => () => new Date(T0 + s * 1000)

before(async () => {
  await ensureReady()
  const t = tableNames()
  // Keep every physical version: no background merge may collapse them during the test.
  await command(`SYSTEM STOP MERGES ${t.workingMemory}`)
  await runBegin({ ...RUN, userId: 'u1', sessionId: 's1', goal: 'forensics' }, at(0))
  const a = { actor: 'batch', sourceTrace: 'host-a/pid-1' }
  const b = { actor: 'batch', sourceTrace: 'host-b/pid-2' }
  await wm.wmSet(REF, 'item-1', { ...a, now: at(10) })
  await wm.wmSet(REF, 'item-1 item-2', { ...a, now: at(20) })
  await wm.wmSet(REF, 'item-1 item-2 item-3', { ...a, now: at(30) })
  // The first process dies; the second begins an hour later and resumes from v3.
  await runBegin({ ...RUN, userId: 'u1', sessionId: 's1', goal: 'forensics' }, at(3600))
  await wm.wmSet(REF, 'item-1 item-2 item-3 item-4', { ...b, now: at(3610) })
  await wm.wmSet(REF, 'item-1 item-2 item-3 item-4 item-5', { ...b, now: at(3620) })
  // A writer that does not check versions ties v5 (ClickHouse keeps the last inserted).
  await insertRows(t.workingMemory, [
    {
      org: RUN.org,
      namespace: RUN.namespace,
      agent: RUN.agent,
      user_id: 'u1',
      session_id: 's1',
      run_id: RUN.runId,
      block_key: 'checkpoint',
      content: 'rogue',
      char_limit: 4096,
      version: '5',
      is_deleted: 0,
      actor: 'rogue-writer',
      source_trace: 'host-x/pid-9',
      updated_at: '2026-11-20 11:00:25.000',
    },
  ])
  // A checkpoint of the same run under another session (a near miss for s1 and the reverse).
  await wm.wmSet({ ...REF, sessionId: 's2' }, 'item-9', { ...b, now: at(3700) })
  // A checkpoint that points at a blob that was never written.
  await wm.wmSet({ ...REF, blockKey: 'state' }, JSON.stringify({ blob_key: 'blob-gone', cursor: 3 }), {
    ...a,
    now: at(40),
  })
})

describe('GET R/blocks/{blockKey}', () => {
  test('every physical version newest first, each with its part; isFinal marks the row FINAL returns', async () => {
    const res = await call(GET, '/x?userId=u1&sessionId=s1', PATH)
    assert.equal(res.status, 200)
    const v = res.body.versions
    assert.deepEqual(
      v.map((r: { version: string }) => r.version),
      ['5', '5', '4', '3', '2', '1'],
    )
    assert.ok(v.every((r: { part: string }) => typeof r.part === 'string' && r.part.length > 0))
    const finals = v.filter((r: { isFinal: boolean }) => r.isFinal)
    assert.equal(finals.length, 1)
    assert.equal(finals[0].actor, 'rogue-writer', 'the last inserted of the tied rows is the one FINAL returns')
    assert.equal(res.body.block.content, 'rogue')
    assert.deepEqual(res.body.flags.ties, ['5'])
    assert.equal(res.body.historyInstalled, true)
    assert.deepEqual(
      res.body.history.map((r: { version: string }) => r.version),
      ['5', '5', '4', '3', '2', '1'],
    )
  })

  test('resume points: the new process after the long gap resumed from v3 with 3 items done', async () => {
    const res = await call(GET, '/x?userId=u1&sessionId=s1', PATH)
    const points = res.body.resume.points.filter((p: { reasons: string[] }) => p.reasons.includes('new-process'))
    assert.equal(points.length >= 1, true)
    const p = points[0]
    assert.equal(p.fromVersion, '3')
    assert.equal(p.unitsDone, 3)
    assert.equal(p.firstWrite.version, '4')
    assert.match(p.firstWrite.summary, /item-4/)
    assert.ok(p.reasons.includes('run-begin'))
    assert.match(res.body.resume.explanation.join('\n'), /host-b\/pid-2 resumed .* from v3/)
    assert.match(res.body.resume.mermaid, /^flowchart/)
    assert.equal(res.body.resume.value, 'rogue')
    assert.equal(res.body.resume.fromVersion, '5')
  })

  test('near misses: the same run under another session is named', async () => {
    const res = await call(GET, '/x?userId=u1&sessionId=s1', PATH)
    assert.deepEqual(columns(res.body.flags.nearMisses, 'agent', 'userId', 'sessionId', 'version'), [
      ['batch', 'u1', 's2', '1'],
    ])
  })

  test('an identity where the block does not exist: 200, block null, resume None, and the near misses', async () => {
    const res = await call(GET, '/x?userId=u1&sessionId=s3', PATH)
    assert.equal(res.status, 200)
    assert.equal(res.body.block, null)
    assert.equal(res.body.resume.value, null)
    assert.deepEqual(res.body.versions, [])
    assert.equal(res.body.flags.nearMisses.length, 2)
    // run.begin happened under s1; it is not a resume point of s3.
    assert.deepEqual(res.body.resume.points, [])
  })

  test('a tombstone: resume returns None while the block is still reported', async () => {
    await wm.wmDelete({ ...REF, sessionId: 's2' }, { actor: 'batch', sourceTrace: 'host-b/pid-2', now: at(3800) })
    const res = await call(GET, '/x?userId=u1&sessionId=s2', PATH)
    assert.equal(res.body.block.isDeleted, true)
    assert.equal(res.body.block.version, '2')
    assert.equal(res.body.resume.value, null)
    assert.equal(res.body.resume.fromVersion, null)
    assert.deepEqual(
      res.body.versions.map((r: { version: string; isDeleted: boolean }) => [r.version, r.isDeleted]),
      [
        ['2', true],
        ['1', false],
      ],
    )
  })

  test('a checkpoint pointing at a blob that does not exist is flagged', async () => {
    const res = await call(GET, '/x?userId=u1&sessionId=s1', { ...PATH, blockKey: 'state' })
    assert.deepEqual(res.body.flags.blob, { blobKey: 'blob-gone', state: 'missing', expiresAt: null })
  })

  test('a run that does not exist is 404', async () => {
    const res = await call(GET, '/x', { ...PATH, runId: 'nope' })
    assert.equal(res.status, 404)
  })
})
