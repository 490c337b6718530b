import assert from 'node:assert/strict'
import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { after, before, describe, test } from 'node:test'
import { TupleParam } from '@clickhouse/client'
import { z } from 'zod'
import type { RunSummary } from '../lib/api/types'
import { queryRows } from '../lib/clickhouse/query'
import { createMissingSchema } from '../lib/setup/init'
import { runBegin, runComplete } from '../lib/loom/runs'
import { wmLatestRow, wmSet } from '../lib/loom/working-memory'
import { invalidateReadCache } from '../lib/server/read-cache'
import { call, columns } from './helpers/routes'
import { apiRoutes as r } from './helpers/api-routes'
import { SERVER_NODE_ARGS } from '../scripts/server-node'

// Remote mode, against a ClickHouse-HTTP peer (tests/helpers/clickhouse-http-peer.ts) on a port
// picked now. All of this must be set before any app module reads the configuration.
const PORT = Number(
  spawnSync(process.execPath, [path.join(__dirname, '..', 'scripts', 'free-port.mjs')], {
    encoding: 'utf8',
  }).stdout.trim(),
)
const USER = 'loom'
const PASSWORD = 'peer-secret'
process.env.CLICKHOUSE_URL = `http://127.0.0.1:${PORT}`
process.env.CLICKHOUSE_USER = USER
process.env.CLICKHOUSE_PASSWORD = PASSWORD
process.env.CLICKHOUSE_REQUEST_TIMEOUT_MS = '3000'
process.env.LOOM_RUNS_DATA_DIR = fs.mkdtempSync(path.join(os.tmpdir(), 'loom-runs-faults-recovery-unused-'))
process.env.LOOM_RUNS_DEMO = '0'
const PEER_DATA = fs.mkdtempSync(path.join(os.tmpdir(), 'loom-runs-faults-recovery-peer-'))
const PEER_SCRIPT = path.join(__dirname, 'helpers', 'clickhouse-http-peer.ts')

const RUN = { org: 'acme', namespace: 'prod', agent: 'resumer', runId: 'run/with%odd "chars" ü' }
const REF = { ...RUN, userId: '', sessionId: '' }
const BLOCK = { ...RUN, blockKey: 'checkpoint' }
const AGENT = { actor: 'resumer', sourceTrace: 'host-r/pid-7' }

type Exit = { code: number | null; signal: NodeJS.Signals | null }
type Peer = { child: ChildProcess; exited: Promise<Exit> }

/** Fails instead of hanging when `p` takes longer than `ms`. */
function within<T>(ms: number, what: string, p: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  const late = new Promise<never>(
    (_, reject) => (timer = setTimeout(() => reject(new Error(`${what}: no answer within ${ms} ms`)), ms)),
  )
  return Promise.race([p, late]).finally(() => clearTimeout(timer))
}

/** Starts the peer on PORT over PEER_DATA; resolves once it says it is listening. */
async function startPeer(): Promise<Peer> {
  const child = spawn(process.execPath, [...SERVER_NODE_ARGS, PEER_SCRIPT, PEER_DATA, String(PORT)], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, PEER_USER: USER, PEER_PASSWORD: PASSWORD },
  })
  const exited = new Promise<Exit>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })))
  let stdout = ''
  let stderr = ''
  child.stderr!.on('data', (d: Buffer) => (stderr += d))
  const listening = new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (d: Buffer) => {
      stdout += d
      if (stdout.includes(`listening ${PORT}\n`)) resolve()
    })
    void exited.then((e) => reject(new Error(`peer exited (${e.code ?? e.signal}) before listening: ${stderr}`)))
  })
  await within(120_000, 'peer start', listening)
  return { child, exited }
}

/** SIGTERM, then the peer's exit status. */
function stopPeer(peer: Peer): Promise<Exit> {
  peer.child.kill('SIGTERM')
  return within(60_000, 'peer stop', peer.exited)
}

let peer: Peer

before(async () => {
  peer = await startPeer()
  // The schema and the run go in through the app's own code, over HTTP to the peer.
  await createMissingSchema({ history: true, runIndex: true })
  await runBegin({ ...REF, goal: 'survive an outage' }, () => new Date('2026-11-25T10:00:00.000Z'))
  await wmSet({ ...BLOCK, userId: '', sessionId: '' }, 'step-1', {
    ...AGENT,
    now: () => new Date('2026-11-25T10:01:00.000Z'),
  })
  await wmSet({ ...BLOCK, userId: '', sessionId: '' }, 'step-1 step-2', {
    ...AGENT,
    now: () => new Date('2026-11-25T10:02:00.000Z'),
  })
  await runComplete({ ...REF, status: 'succeeded', turns: 2 }, () => new Date('2026-11-25T10:05:00.000Z'))
})

after(async () => {
  if (peer && peer.child.exitCode === null && peer.child.signalCode === null) {
    peer.child.kill('SIGTERM')
    await within(10_000, 'peer stop', peer.exited).catch(() => {
      peer.child.kill('SIGKILL')
      return peer.exited
    })
  }
  for (const dir of [PEER_DATA, process.env.LOOM_RUNS_DATA_DIR!]) fs.rmSync(dir, { recursive: true, force: true })
})

/** The three read routes for RUN: the runs list, the run and its blocks. */
async function reads() {
  return {
    list: await call(r.runs, '/api/runs?org=acme'),
    run: await call(r.run, '/x', RUN),
    blocks: await call(r.blocks, '/x', RUN),
  }
}

const listed = (res: { body: { runs: RunSummary[] } }) => res.body.runs.find((x) => x.runId === RUN.runId)

const edit = (content: string, expectedVersion: string, reason: string) =>
  call(r.put, '/x?userId=&sessionId=', BLOCK, {
    method: 'PUT',
    body: { content, expectedVersion, reason, force: false },
  })

describe('the peer speaks ClickHouse HTTP', () => {
  test('query parameters reach the engine as the exact value a server binds (INSERT and parameterised SELECT)', async () => {
    const ODD = `run/with%odd "chars" ü\t\\'x\ny`
    const [echo] = await queryRows(
      'SELECT {s:String} AS s, hex({s:String}) AS h, {n:Nullable(String)} AS n, {a:Array(Tuple(String, String))} AS a',
      { s: ODD, n: null, a: [new TupleParam([ODD, "it's"])] },
      z.object({ s: z.string(), h: z.string(), n: z.null(), a: z.array(z.tuple([z.string(), z.string()])) }),
    )
    assert.deepEqual(echo, {
      s: ODD,
      h: Buffer.from(ODD, 'utf8').toString('hex').toUpperCase(),
      n: null,
      a: [[ODD, "it's"]],
    })
    // A row with that string in its key and content: INSERT with the rows in the body, then the
    // app's own parameterised reads (String parameters; the list binds Array(Tuple(...)) ones).
    const ref = {
      org: 'params',
      namespace: 'p',
      agent: 'a',
      userId: ODD,
      sessionId: '',
      runId: ODD,
      blockKey: 'checkpoint',
    }
    await wmSet(ref, ODD, AGENT)
    const row = await wmLatestRow(ref)
    assert.deepEqual([row?.run_id, row?.user_id, row?.content, row?.version], [ODD, ODD, ODD, '1'])
    const list = await call(r.runs, '/api/runs?org=params')
    assert.equal(list.status, 200, JSON.stringify(list.body))
    assert.deepEqual(
      list.body.runs.map((x: { runId: string; userId: string; checkpoint: { version: string } | null }) => [
        x.runId,
        x.userId,
        x.checkpoint?.version,
      ]),
      [[ODD, ODD, '1']],
    )
  })

  test('a server error arrives as a ClickHouseError with its code and type', async () => {
    const err = await queryRows('SELECT 1 AS x FROM no_such_database.t', {}, z.object({ x: z.number() })).then(
      () => null,
      (e: { code?: string; cause?: { code?: string; type?: string } }) => e,
    )
    assert.equal(err?.code, 'unavailable')
    assert.deepEqual([err?.cause?.code, err?.cause?.type], ['81', 'UNKNOWN_DATABASE'])
  })
})

describe('ClickHouse goes away and comes back on the same port: the app recovers by itself', () => {
  let beforeOutage: Awaited<ReturnType<typeof reads>>

  test('before the outage: the list, the run and its blocks answer 200 with the written run', async () => {
    const s = await reads()
    for (const res of [s.list, s.run, s.blocks]) assert.equal(res.status, 200, JSON.stringify(res.body))
    const item = listed(s.list)
    assert.ok(item, 'the run is in the list')
    const { org, namespace, agent, runId, status, goal, turns, checkpoint } = item
    assert.deepEqual(
      { org, namespace, agent, runId, status, goal, turns, version: checkpoint?.version },
      { ...RUN, status: 'succeeded', goal: 'survive an outage', turns: 2, version: '2' },
    )
    assert.equal(s.run.body.run.runId, RUN.runId)
    assert.equal(s.run.body.run.status, 'succeeded')
    assert.equal(s.run.body.run.checkpoint.version, '2')
    assert.deepEqual(columns(s.blocks.body.blocks, 'blockKey', 'version', 'content', 'actor'), [
      ['checkpoint', '2', 'step-1 step-2', 'resumer'],
    ])
  })

  test('an operator edit answers 200 with the next version', async () => {
    const res = await edit('step-1 step-2 (fixed)', '2', 'fix before the outage')
    assert.equal(res.status, 200, JSON.stringify(res.body))
    assert.equal(res.body.block.version, '3')
    assert.equal(res.body.block.content, 'step-1 step-2 (fixed)')
    assert.equal(res.body.block.actor, 'operator:local')
    beforeOutage = await reads()
    assert.equal(beforeOutage.run.body.run.checkpoint.version, '3')
    assert.equal(beforeOutage.blocks.body.blocks[0].content, 'step-1 step-2 (fixed)')
  })

  test('while the server is down: every read and the edit answer 503 unavailable', async () => {
    assert.deepEqual(await stopPeer(peer), { code: 0, signal: null }, 'the peer exits cleanly on SIGTERM')
    // Answers read a moment ago may be served for up to their 2 s time to live: ask past them.
    invalidateReadCache()
    const s = await reads()
    for (const res of [s.list, s.run, s.blocks]) {
      assert.equal(res.status, 503, JSON.stringify(res.body))
      assert.equal(res.body.error.code, 'unavailable')
    }
    const put = await edit('written during the outage', '3', 'must not land')
    assert.equal(put.status, 503, JSON.stringify(put.body))
    assert.equal(put.body.error.code, 'unavailable')
  })

  test('once it is back on the same port and data: the same answers as before, and edits work again', async () => {
    peer = await startPeer()
    // Nothing in the app is reset or restarted: the same process, the same client.
    const s = await reads()
    for (const res of [s.list, s.run, s.blocks]) assert.equal(res.status, 200, JSON.stringify(res.body))
    assert.deepEqual(listed(s.list), listed(beforeOutage.list))
    assert.deepEqual(s.run.body, beforeOutage.run.body)
    assert.deepEqual(s.blocks.body, beforeOutage.blocks.body, 'the refused edit changed nothing')
    const audit = await call(r.audit, '/x', RUN)
    assert.equal(audit.status, 200)
    assert.deepEqual(
      audit.body.entries.map((e: { reason: string }) => e.reason),
      ['fix before the outage'],
    )
    const res = await edit('step-1 step-2 step-3', '3', 'after the outage')
    assert.equal(res.status, 200, JSON.stringify(res.body))
    assert.equal(res.body.block.version, '4')
    const blocks = await call(r.blocks, '/x', RUN)
    assert.deepEqual(
      blocks.body.blocks.map((b: { version: string; content: string }) => [b.version, b.content]),
      [['4', 'step-1 step-2 step-3']],
    )
  })

  test('the peer stops cleanly again, and the app answers 503 rather than crashing', async () => {
    assert.deepEqual(await stopPeer(peer), { code: 0, signal: null })
    const res = await call(r.runs, '/api/runs')
    assert.equal(res.status, 503)
    assert.equal(res.body.error.code, 'unavailable')
  })
})
