/**
 * A checkpoint is never half-written, and the audit log is only written by the write paths.
 * Faults are made by the real engine: CHECK constraints that refuse one insert into working memory
 * or into the audit table, the way a full disk, a lost grant or a server restart refuses it.
 */
import assert from 'node:assert/strict'
import fs from 'node:fs'
import path from 'node:path'
import { before, describe, test } from 'node:test'
import { z } from 'zod'
import * as q from '../lib/clickhouse/query'
import { runBegin, runComplete } from '../lib/loom/runs'
import { tableNames } from '../lib/loom/tables'
import { wmGet, wmSet } from '../lib/loom/working-memory'
import { ensureReady } from '../lib/server/ready'
import * as block from '../app/api/runs/[org]/[namespace]/[agent]/[runId]/blocks/[blockKey]/route'
import { useFreshEngine } from './helpers/engine'
import { call } from './helpers/routes'

useFreshEngine('write-integrity')

const RUN = { org: 'acme', namespace: 'prod', agent: 'batch', runId: 'run-integrity' }
const BLOCK = { ...RUN, blockKey: 'checkpoint' }
const REF = { ...BLOCK, userId: '', sessionId: '' }
/** 3,000 code points, most of them several bytes long: a truncated row could not match it. */
const BIG = Array.from({ length: 1000 }, (_, i) => `é${String.fromCodePoint(0x1f600 + (i % 50))}${i % 10}`).join('')

let t: ReturnType<typeof tableNames>

before(async () => {
  await ensureReady()
  t = tableNames()
  await runBegin({ ...RUN, userId: '', sessionId: '', goal: 'integrity' })
  await wmSet(REF, 'item-1', { actor: 'batch', sourceTrace: 'h/1' }, { charLimit: 4096 })
  await wmSet(REF, 'item-1 item-2', { actor: 'batch', sourceTrace: 'h/1' })
  await runComplete({ ...RUN, status: 'failed' })
})

/** Everything a write could touch: the block's rows, its captured history and the audit log. */
async function state() {
  const [row] = await q.queryRows(
    `SELECT
       (SELECT count() FROM ${t.workingMemory}) AS wm_rows,
       (SELECT count() FROM ${t.history}) AS history_rows,
       (SELECT count() FROM ${t.audit}) AS audit_rows,
       (SELECT toString(groupArray((version, cityHash64(content), is_deleted))) FROM
          (SELECT version, content, is_deleted FROM ${t.workingMemory} ORDER BY version)) AS versions`,
    {},
    z.object({
      wm_rows: z.coerce.number(),
      history_rows: z.coerce.number(),
      audit_rows: z.coerce.number(),
      versions: z.string(),
    }),
  )
  return row
}

async function latest() {
  const res = await call(block.GET, '/x?userId=&sessionId=', BLOCK)
  assert.equal(res.status, 200)
  return res.body.block as { version: string; content: string; chars: number; isDeleted: boolean }
}

const put = (body: unknown) => call(block.PUT, '/x?userId=&sessionId=', BLOCK, { method: 'PUT', body })

describe('no half-written checkpoint', () => {
  test('an insert the engine refuses changes nothing: no version, no history, no audit row; the retry gets the next version', async () => {
    const before = await state()
    const start = await latest()
    await q.command(`ALTER TABLE ${t.workingMemory} ADD CONSTRAINT refuse_poison CHECK position(content, 'POISON') = 0`)
    try {
      const res = await put({ content: `${BIG} POISON`, expectedVersion: start.version, reason: 'fault test' })
      assert.ok(res.status >= 500, `status ${res.status}`)
      assert.equal(typeof res.body.error.code, 'string')
      assert.equal(typeof res.body.error.message, 'string')
      assert.deepEqual(await state(), before)
      assert.deepEqual(await latest(), start)
    } finally {
      await q.command(`ALTER TABLE ${t.workingMemory} DROP CONSTRAINT refuse_poison`)
    }
    const retry = await put({ content: BIG, expectedVersion: start.version, reason: 'fault test retry' })
    assert.equal(retry.status, 200, JSON.stringify(retry.body))
    assert.equal(retry.body.block.version, String(BigInt(start.version) + 1n))
    const now = await latest()
    assert.equal(now.content, BIG)
    assert.equal(now.chars, 3000)
    const after = await state()
    assert.deepEqual(
      [after.wm_rows, after.history_rows, after.audit_rows],
      [before.wm_rows + 1, before.history_rows + 1, before.audit_rows + 1],
    )
  })

  test('when the audit insert fails after the checkpoint landed, the answer names the version that landed, and it is whole', async () => {
    const start = await latest()
    const before = await state()
    await q.command(`ALTER TABLE ${t.audit} ADD CONSTRAINT refuse_reason CHECK reason != 'audit refused'`)
    let res: Awaited<ReturnType<typeof put>>
    const content = `${BIG}!`
    try {
      res = await put({ content, expectedVersion: start.version, reason: 'audit refused' })
    } finally {
      await q.command(`ALTER TABLE ${t.audit} DROP CONSTRAINT refuse_reason`)
    }
    const landed = String(BigInt(start.version) + 1n)
    assert.equal(res.status, 503, JSON.stringify(res.body))
    assert.match(
      res.body.error.message,
      new RegExp(`The write landed as version ${landed}, but its audit row could not be written`),
    )
    const now = await latest()
    assert.deepEqual([now.version, now.content, now.chars], [landed, content, 3001])
    const after = await state()
    assert.deepEqual([after.wm_rows, after.audit_rows], [before.wm_rows + 1, before.audit_rows])
  })

  test('a clear the engine refuses leaves the live checkpoint readable', async () => {
    const start = await latest()
    await q.command(`ALTER TABLE ${t.workingMemory} ADD CONSTRAINT refuse_tombstone CHECK is_deleted = 0`)
    try {
      const res = await call(block.DELETE, '/x?userId=&sessionId=', BLOCK, {
        method: 'DELETE',
        body: { expectedVersion: start.version, reason: 'fault test' },
      })
      assert.ok(res.status >= 500, `status ${res.status}: ${JSON.stringify(res.body)}`)
    } finally {
      await q.command(`ALTER TABLE ${t.workingMemory} DROP CONSTRAINT refuse_tombstone`)
    }
    assert.deepEqual(await latest(), start)
    assert.equal(await wmGet(REF), start.content)
  })
})

describe('the audit log is written by the write paths only', () => {
  const root = path.join(__dirname, '..')
  const sources = (dir: string): string[] =>
    fs.readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((e) => {
      const rel = path.join(dir, e.name)
      if (e.isDirectory()) return sources(rel)
      return /\.tsx?$/.test(e.name) ? [rel] : []
    })
  const files = ['app', 'components', 'lib', 'scripts'].flatMap(sources)

  test('only the operator write module (and the demo, replaying console edits) calls recordAudit; only lib/loom/audit.ts inserts into the table', () => {
    assert.ok(files.length > 100, `scanned ${files.length} files`)
    const callers = files.filter((f) => /\brecordAudit\s*\(/.test(fs.readFileSync(path.join(root, f), 'utf8'))).sort()
    assert.deepEqual(callers, ['lib/demo/stories.ts', 'lib/loom/audit.ts', 'lib/operator/writes.ts'])
    const inserters = files.filter((f) => {
      const text = fs.readFileSync(path.join(root, f), 'utf8')
      return (
        /insertRows\(\s*(tableNames\(\)|\w+)\.audit\b/.test(text) ||
        /INSERT INTO \$\{[^}]*\.audit\}/.test(text) ||
        /INSERT INTO [\w.]*audit_log/.test(text)
      )
    })
    assert.deepEqual(inserters, ['lib/loom/audit.ts'])
  })

  test('no route but the block writes answers a write method; the audit route is read-only', async () => {
    const routeFiles = files.filter((f) => f.startsWith('app/api/') && f.endsWith('route.ts'))
    const writers: string[] = []
    for (const f of routeFiles) {
      const mod = (await import(path.join(root, f))) as Record<string, unknown>
      for (const m of ['POST', 'PUT', 'PATCH', 'DELETE'])
        if (typeof mod[m] === 'function')
          writers.push(`${m} ${f.replace(/^app\/api\//, '').replace(/\/route\.ts$/, '')}`)
    }
    assert.deepEqual(writers.sort(), [
      // The MCP endpoint's POST carries read-only JSON-RPC; its DELETE only answers 405.
      'DELETE mcp',
      'DELETE runs/[org]/[namespace]/[agent]/[runId]/blocks/[blockKey]',
      // Saved views write the console's own views table, never Loom's.
      'DELETE views/[id]',
      'POST auth/login',
      'POST auth/logout',
      // Batches, and their undo, write each item through the same conflict-checked block writes.
      'POST batches',
      'POST batches/[batchId]/undo',
      'POST mcp',
      'POST runs/[org]/[namespace]/[agent]/[runId]/blocks/[blockKey]/restore',
      'POST views',
      'POST views/[id]/test',
      'PUT runs/[org]/[namespace]/[agent]/[runId]/blocks/[blockKey]',
      'PUT views/[id]',
    ])
  })

  test('every audit row matches a working-memory version written by an operator', async () => {
    const rows = await q.queryRows(
      `SELECT a.after_version AS v, countIf(w.version = a.after_version AND startsWith(w.actor, 'operator:')) AS matched
       FROM ${t.audit} AS a LEFT JOIN ${t.history} AS w
         ON w.org = a.org AND w.namespace = a.namespace AND w.agent = a.agent AND w.run_id = a.run_id
        AND w.user_id = a.user_id AND w.session_id = a.session_id AND w.block_key = a.block_key AND w.version = a.after_version
       GROUP BY v ORDER BY v`,
      {},
      z.object({ v: z.string(), matched: z.coerce.number() }),
    )
    assert.ok(rows.length >= 1)
    assert.deepEqual(
      rows.filter((r) => r.matched !== 1),
      [],
    )
  })
})
