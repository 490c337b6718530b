/**
 * The embedded data directory on a read-only file system: every route answers 503 naming the
 * directory, a write changes nothing, the process lives on, and once the file system is writable
 * again the same process serves the same data. The read-only file system is a read-only bind
 * mount (root can write anywhere else, whatever the permissions say).
 */
import assert from 'node:assert/strict'
import { execFileSync, spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { after, before, test } from 'node:test'
import { useFreshEngine } from './helpers/engine'
import { call } from './helpers/routes'
import { SERVER_NODE_ARGS } from '../scripts/server-node'
import { GET as health } from '../app/api/health/route'
import { GET as runs } from '../app/api/runs/route'
import * as block from '../app/api/runs/[org]/[namespace]/[agent]/[runId]/blocks/[blockKey]/route'

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'loom-runs-readonly-'))
const source = path.join(root, 'source')
const dir = path.join(root, 'mounted')
fs.mkdirSync(source)
fs.mkdirSync(dir)
useFreshEngine('readonly', { LOOM_RUNS_DATA_DIR: dir })

const RUN = { org: 'acme', namespace: 'prod', agent: 'batch', runId: 'run-ro' }

/** Whether this machine lets us make a read-only bind mount (needs root). */
function mountReadOnly(): boolean {
  try {
    execFileSync('mount', ['--bind', source, dir], { stdio: 'ignore' })
    execFileSync('mount', ['-o', 'remount,ro,bind', dir], { stdio: 'ignore' })
    return true
  } catch {
    return false
  }
}
let mounted = false

before(() => {
  // The data: schema and one run, written by another process into the source directory.
  const seed = spawnSync(
    process.execPath,
    [
      ...SERVER_NODE_ARGS,
      path.join(__dirname, 'helpers', 'seed-small-run.ts'),
      RUN.org,
      RUN.namespace,
      RUN.agent,
      RUN.runId,
    ],
    {
      cwd: path.join(__dirname, '..'),
      env: { ...process.env, LOOM_RUNS_DATA_DIR: source, LOOM_RUNS_DEMO: '0' },
      encoding: 'utf8',
    },
  )
  assert.equal(seed.status, 0, seed.stderr)
  mounted = mountReadOnly()
})

after(() => {
  // The engine still holds the directory open: detach the mount lazily, then remove what we can.
  if (mounted) spawnSync('umount', ['-l', dir])
  fs.rmSync(source, { recursive: true, force: true })
})

test('a read-only data directory → 503 naming it, writes change nothing; writable again → the same data', async (t) => {
  if (!mounted) {
    t.skip('this machine does not allow a read-only bind mount (not root)')
    return
  }
  const blockPath = { ...RUN, blockKey: 'checkpoint' }
  for (const h of [health, runs]) {
    const res = await call(h, '/api/runs')
    assert.equal(res.status, 503, JSON.stringify(res.body))
    assert.equal(res.body.error.code, 'unavailable')
    assert.match(res.body.error.message, /data directory.*not writable/)
  }
  const put = await call(block.PUT, '/x?userId=&sessionId=', blockPath, {
    method: 'PUT',
    body: { content: 'edited while read-only', expectedVersion: '1', reason: 'read-only test', force: true },
  })
  assert.equal(put.status, 503, JSON.stringify(put.body))

  // Writable again, same path: the same process recovers and serves what was there.
  execFileSync('mount', ['-o', 'remount,rw,bind', dir])
  const ok = await call(runs, '/api/runs')
  assert.equal(ok.status, 200, JSON.stringify(ok.body))
  assert.deepEqual(
    ok.body.runs.map((r: { runId: string; checkpoint: { version: string } | null }) => [
      r.runId,
      r.checkpoint?.version,
    ]),
    [[RUN.runId, '1']],
  )
  const detail = await call(block.GET, '/x?userId=&sessionId=', blockPath)
  // The refused edit left nothing: still version 1 with its content.
  assert.deepEqual([detail.body.block.version, detail.body.block.content], ['1', 'item-1'])
})
