import assert from 'node:assert/strict'
import { before, describe, test } from 'node:test'
import { useFreshEngine } from './helpers/engine'
import { hashPassword } from '../lib/auth/passwords'
import { param, sql } from '../lib/clickhouse/sql'
import { resetConfig } from '../lib/config'
import { historyCount } from './helpers/history-rows'
import { call } from './helpers/routes'
import { AS_OF, T0, T1, T2, T3, at, checkpointRuns, hoursAgo } from './helpers/batch-runs'
import { insertRows } from '../lib/loom/insert'
import * as wm from '../lib/loom/working-memory'
import { runBegin, runComplete } from '../lib/loom/runs'
import { conversationAppend } from '../lib/loom/conversations'
import { memorySet } from '../lib/loom/memory'
import { tableNames } from '../lib/loom/tables'
import { ensureReady } from '../lib/server/ready'
import { POST as post } from '../app/api/batches/route'
import { GET as audit } from '../app/api/runs/[org]/[namespace]/[agent]/[runId]/audit/route'
import { PUT as single } from '../app/api/runs/[org]/[namespace]/[agent]/[runId]/blocks/[blockKey]/route'

useFreshEngine('api-batches')

type Current = { version: string; actor: string; byOperator: boolean; isDeleted: boolean; updatedAt: string }
type Item = {
  runId: string
  blockKey: string
  fromVersion: string | null
  toVersion: string | null
  action: string
  why?: string
  outcome?: string
  newVersion?: string
  status?: string
  current?: Current | null
  warnings?: string[]
  message?: string
  after?: { checkpointWrites: number; turns: number; memoryWrites: number; searches: number; blobs: number }
  units?: { kind: string; redo: number | null; sample: string[] }
}

const ORG = 'bt'
const NS = 'ns'
const AGENT = 'ag'
const ORIGIN = { origin: 'http://127.0.0.1:3000' }

let tables: ReturnType<typeof tableNames>

const { ref, agentAt: agent, seed } = checkpointRuns(ORG, NS, AGENT)
const send = (body: unknown, headers: Record<string, string> = ORIGIN) =>
  call(post, '/api/batches', {}, { method: 'POST', body, headers })
const byRun = (items: Item[]) => Object.fromEntries(items.map((i) => [i.runId, i]))

/** Working-memory rows the console wrote for a run (the history table keeps every insert). */
function operatorRows(runId: string): Promise<number> {
  return historyCount(
    sql`org = ${param('org', 'String', ORG)} AND run_id = ${param('run', 'String', runId)} AND startsWith(actor, 'operator:')`,
  )
}

before(async () => {
  await ensureReady()
  tables = tableNames()
  // r1: three live versions.
  await seed('r1', [
    ['a', T0],
    ['a b', T1],
    ['a b c', T2],
  ])
  // r2: cleared by the agent after one version.
  await seed('r2', [
    ['x', T0],
    [null, T1],
  ])
  // r3: a run without any checkpoint.
  await seed('r3')
  // r4: live, a tombstone, live again.
  await seed('r4', [
    ['p', T0],
    ['p q', T1],
    [null, T2],
    ['z', T3],
  ])
  await wm.wmSet({ ...ref('r4'), blockKey: 'notes' }, 'n1', agent(T0))
  // r5: a checkpoint-only run whose latest version predates the restore time.
  await wm.wmSet(ref('r5'), 'k', agent(T0))
  await wm.wmSet(ref('r5'), 'k l', agent(T1))
  // r6 (its own namespace): an id list growing, and a turn and a memory write after its second version.
  const r6 = { ...ref('r6'), namespace: 'ids' }
  await runBegin(
    { org: ORG, namespace: 'ids', agent: AGENT, userId: '', sessionId: '', runId: 'r6', goal: 'ids' },
    at(T0),
  )
  await wm.wmSet(r6, 'item-1', agent(T0))
  await wm.wmSet(r6, 'item-1 item-2', agent(T1))
  await conversationAppend(
    {
      org: ORG,
      namespace: 'ids',
      agent: AGENT,
      userId: '',
      sessionId: '',
      runId: 'r6',
      conversationId: 'c6',
      role: 'assistant',
      content: 'items 3 and 4',
    },
    at(T2),
  )
  await memorySet(
    { org: ORG, namespace: 'ids', agent: AGENT, userId: '', sessionId: '', runId: 'r6', memoryKey: 'seen', value: 4 },
    at(T2),
  )
  await wm.wmSet(r6, 'item-1 item-2 item-3 item-4', agent(T2))
  await runComplete({ org: ORG, namespace: 'ids', agent: AGENT, runId: 'r6', status: 'failed' }, at(T3))
  // 1,001 checkpoint-only runs in another namespace, for the cap.
  await insertRows(
    tables.workingMemory,
    Array.from({ length: 1001 }, (_, i) => ({
      org: ORG,
      namespace: 'big',
      agent: AGENT,
      user_id: '',
      session_id: '',
      run_id: `big-${i}`,
      block_key: 'checkpoint',
      content: 'c',
      char_limit: 4096,
      version: 1,
      is_deleted: 0,
      actor: AGENT,
      source_trace: 'bulk',
      updated_at: T0.replace('T', ' ').replace('Z', ''),
    })),
  )
})

const FILTER = { org: ORG, namespace: NS }

describe('dry run', () => {
  test('restore as of a time: from the latest version to the latest live one written before it', async () => {
    const res = await send({ filter: FILTER, action: 'restore', before: AS_OF, reason: 'preview', dryRun: true })
    assert.equal(res.status, 200, JSON.stringify(res.body))
    assert.equal(res.body.total, 5)
    assert.equal(typeof res.body.token, 'string')
    const items = byRun(res.body.items)
    assert.deepEqual(
      Object.fromEntries(Object.entries(items).map(([k, v]) => [k, [v.fromVersion, v.toVersion, v.action]])),
      {
        r1: ['3', '2', 'restore'],
        r2: ['2', '1', 'restore'],
        r3: [null, null, 'skip'],
        r4: ['4', '2', 'restore'],
        r5: ['2', '2', 'skip'],
      },
    )
    assert.match(items.r3.why!, /no checkpoint block/)
    assert.match(items.r5.why!, /nothing to restore/)
    // Foresight per item that writes: versions written after the target (r1: v3; r4: v3 and v4), none for skipped items.
    assert.deepEqual(items.r1.after, { checkpointWrites: 1, turns: 0, memoryWrites: 0, searches: 0, blobs: 0 })
    assert.equal(items.r4.after?.checkpointWrites, 2)
    assert.deepEqual(items.r1.units, { kind: 'none', redo: null, sample: [] })
    assert.equal(items.r3.after, undefined)
    assert.deepEqual(
      Object.keys(items.r1).sort(),
      [
        'action',
        'after',
        'agent',
        'blockKey',
        'current',
        'fromVersion',
        'namespace',
        'org',
        'runId',
        'sessionId',
        'status',
        'toVersion',
        'units',
        'userId',
        'warnings',
      ].sort(),
    )
    // What each write replaces: r1's v3 is the agent's live version; r2's v2 the agent's tombstone.
    assert.equal(items.r1.status, 'failed')
    assert.deepEqual(
      { ...items.r1.current, updatedAt: undefined },
      { version: '3', actor: AGENT, byOperator: false, isDeleted: false, updatedAt: undefined },
    )
    assert.equal(items.r1.current!.updatedAt, T2)
    assert.deepEqual(items.r1.warnings, ['replaces live version 3: not a tombstone'])
    assert.equal(items.r2.current!.isDeleted, true)
    assert.deepEqual(items.r2.warnings, [])
    assert.equal(items.r3.current, null)
  })

  test('restore before every version: nothing to restore', async () => {
    const res = await send({ filter: FILTER, action: 'restore', before: hoursAgo(11), dryRun: true })
    assert.equal(res.status, 200, JSON.stringify(res.body))
    assert.ok(res.body.items.every((i: Item) => i.action === 'skip'))
  })

  test('clear: every live block from its latest version; tombstones and missing blocks skipped', async () => {
    const res = await send({ filter: FILTER, action: 'clear', dryRun: true })
    assert.equal(res.status, 200, JSON.stringify(res.body))
    const items = byRun(res.body.items)
    assert.deepEqual(
      Object.fromEntries(Object.entries(items).map(([k, v]) => [k, [v.fromVersion, v.toVersion, v.action]])),
      {
        r1: ['3', null, 'clear'],
        r2: ['2', null, 'skip'],
        r3: [null, null, 'skip'],
        r4: ['4', null, 'clear'],
        r5: ['2', null, 'clear'],
      },
    )
    assert.match(items.r2.why!, /tombstone/)
    // A clear counts from each run's first write.
    assert.equal(items.r1.after?.checkpointWrites, 2)
    assert.equal(items.r4.after?.checkpointWrites, 3)
  })

  test('foresight on id lists: the units each item makes the agent redo, and the turns and memory writes after the target', async () => {
    const restore = await send({
      filter: { org: ORG, namespace: 'ids' },
      action: 'restore',
      before: AS_OF,
      reason: 'preview',
      dryRun: true,
    })
    assert.equal(restore.status, 200, JSON.stringify(restore.body))
    const [r] = restore.body.items as Item[]
    assert.deepEqual([r.fromVersion, r.toVersion, r.action], ['3', '2', 'restore'])
    assert.deepEqual(r.units, { kind: 'list', redo: 2, sample: ['item-3', 'item-4'] })
    assert.deepEqual(r.after, { checkpointWrites: 1, turns: 1, memoryWrites: 1, searches: 0, blobs: 0 })
    const clear = await send({
      filter: { org: ORG, namespace: 'ids' },
      action: 'clear',
      reason: 'preview',
      dryRun: true,
    })
    const [c] = clear.body.items as Item[]
    assert.deepEqual(c.units, { kind: 'list', redo: 4, sample: ['item-1', 'item-2', 'item-3', 'item-4'] })
    assert.deepEqual(c.after, { checkpointWrites: 2, turns: 1, memoryWrites: 1, searches: 0, blobs: 0 })
  })

  test('another block: read from working memory, and runs without it skipped', async () => {
    const res = await send({ filter: FILTER, blockKey: 'notes', action: 'clear', dryRun: true })
    assert.equal(res.status, 200, JSON.stringify(res.body))
    const items = byRun(res.body.items)
    assert.deepEqual([items.r4.fromVersion, items.r4.action, items.r4.blockKey], ['1', 'clear', 'notes'])
    assert.deepEqual(
      ['r1', 'r2', 'r3', 'r5'].map((r) => items[r].action),
      ['skip', 'skip', 'skip', 'skip'],
    )
    assert.match(items.r1.why!, /no notes block/)
  })

  test('the list filter narrows the batch like the runs page (status, q)', async () => {
    const failed = await send({ filter: { ...FILTER, status: 'failed' }, action: 'clear', dryRun: true })
    assert.deepEqual(failed.body.items.map((i: Item) => i.runId).sort(), ['r1', 'r2', 'r3', 'r4'])
    const one = await send({ filter: { ...FILTER, q: 'r4' }, action: 'clear', dryRun: true })
    assert.deepEqual(
      one.body.items.map((i: Item) => i.runId),
      ['r4'],
    )
  })

  test('a filter matching more than 1,000 runs is a 400 that says how many', async () => {
    const res = await send({ filter: { org: ORG, namespace: 'big' }, action: 'clear', dryRun: true })
    assert.equal(res.status, 400, JSON.stringify(res.body))
    assert.equal(res.body.error.field, 'filter')
    assert.match(res.body.error.message, /more than 1,000 runs/)
    assert.match(res.body.error.message, /1,001/)
  })
})

describe('refusals', () => {
  const cases: [string, unknown, string][] = [
    ['unknown field', { filter: FILTER, action: 'clear', dryRun: true, sneaky: 1 }, 'sneaky'],
    ['unknown filter field', { filter: { ...FILTER, colour: 'red' }, action: 'clear', dryRun: true }, 'colour'],
    ['bad action', { filter: FILTER, action: 'nuke', dryRun: true }, 'action'],
    ['restore without before', { filter: FILTER, action: 'restore', dryRun: true }, 'before'],
    ['bad before', { filter: FILTER, action: 'restore', before: 'yesterday', dryRun: true }, 'before'],
    ['bad status', { filter: { status: 'sleeping' }, action: 'clear', dryRun: true }, 'filter.status'],
    ['unknown flag', { filter: { flag: ['odd'] }, action: 'clear', dryRun: true }, 'filter.flag'],
    ['missing dryRun', { filter: FILTER, action: 'clear' }, 'dryRun'],
    ['missing filter', { action: 'clear', dryRun: true }, 'filter'],
    ['write without token', { filter: FILTER, action: 'clear', dryRun: false, reason: 'r' }, 'token'],
    ['write without reason', { filter: FILTER, action: 'clear', dryRun: false, token: 'x.y' }, 'reason'],
    ['empty blockKey', { filter: FILTER, blockKey: '', action: 'clear', dryRun: true }, 'blockKey'],
  ]
  for (const [name, body, field] of cases) {
    test(`${name} → 400 naming ${field}`, async () => {
      const res = await send(body)
      assert.equal(res.status, 400, JSON.stringify(res.body))
      // A nested field may also name the array position (filter.flag.0).
      assert.ok(res.body.error.field === field || res.body.error.field.startsWith(`${field}.`), res.body.error.field)
      assert.ok(res.body.error.message.includes(field.split('.').pop()!), res.body.error.message)
    })
  }

  test('a token from another filter, action or time is a 409, and writes nothing', async () => {
    const preview = await send({ filter: FILTER, action: 'clear', dryRun: true })
    const token = preview.body.token
    const other = await send({
      filter: { ...FILTER, status: 'failed' },
      action: 'clear',
      dryRun: false,
      reason: 'r',
      token,
    })
    assert.equal(other.status, 409, JSON.stringify(other.body))
    assert.equal(other.body.error.code, 'conflict')
    const action = await send({ filter: FILTER, action: 'restore', before: AS_OF, dryRun: false, reason: 'r', token })
    assert.equal(action.status, 409)
    const forged = await send({
      filter: FILTER,
      action: 'clear',
      dryRun: false,
      reason: 'r',
      token: `${token.split('.')[0]}.AAAA`,
    })
    assert.equal(forged.status, 409)
    for (const run of ['r1', 'r4', 'r5']) assert.equal(await operatorRows(run), 0)
  })

  test('cross-origin → 403', async () => {
    const res = await send({ filter: FILTER, action: 'clear', dryRun: true }, { origin: 'http://evil.example' })
    assert.equal(res.status, 403)
    const site = await send({ filter: FILTER, action: 'clear', dryRun: true }, { 'sec-fetch-site': 'cross-site' })
    assert.equal(site.status, 403)
  })

  test('a viewer → 403; read-only mode → 403', async () => {
    const preview = await send({ filter: FILTER, action: 'clear', dryRun: true })
    try {
      process.env.LOOM_RUNS_USERS = `vic:viewer:${await hashPassword('viewer pass')}`
      resetConfig()
      const basic = `Basic ${Buffer.from('vic:viewer pass').toString('base64')}`
      const viewer = await send(
        { filter: FILTER, action: 'clear', dryRun: false, reason: 'r', token: preview.body.token },
        { ...ORIGIN, authorization: basic },
      )
      assert.equal(viewer.status, 403, JSON.stringify(viewer.body))
      assert.match(viewer.body.error.message, /viewer/)
      delete process.env.LOOM_RUNS_USERS
      process.env.LOOM_RUNS_READ_ONLY = '1'
      resetConfig()
      const ro = await send({ filter: FILTER, action: 'clear', dryRun: false, reason: 'r', token: preview.body.token })
      assert.equal(ro.status, 403)
      assert.match(ro.body.error.message, /read-only/)
    } finally {
      delete process.env.LOOM_RUNS_USERS
      delete process.env.LOOM_RUNS_READ_ONLY
      resetConfig()
    }
    for (const run of ['r1', 'r4', 'r5']) assert.equal(await operatorRows(run), 0)
  })
})

describe('real run', () => {
  let batchId = ''

  test('items moved by another writer after the preview are conflicts and stay unwritten; the rest are written once', async () => {
    const body = { filter: FILTER, action: 'restore', before: AS_OF, reason: 'back to the state before the bad deploy' }
    const preview = await send({ ...body, dryRun: true })
    assert.equal(preview.status, 200)
    // Another writer moves r1 on after the preview.
    await wm.wmSet(ref('r1'), 'a b c d', { actor: AGENT, sourceTrace: 'host-b/pid-2' })
    const res = await send({ ...body, dryRun: false, token: preview.body.token })
    assert.equal(res.status, 200, JSON.stringify(res.body))
    batchId = res.body.batchId
    assert.match(batchId, /^[0-9a-f-]{36}$/)
    const items = byRun(res.body.items)
    assert.deepEqual(
      Object.fromEntries(Object.entries(items).map(([k, v]) => [k, [v.outcome, v.newVersion ?? null]])),
      { r1: ['conflict', null], r2: ['done', '3'], r3: ['skipped', null], r4: ['done', '5'], r5: ['skipped', null] },
    )
    assert.equal(await wm.wmGet(ref('r1')), 'a b c d')
    assert.equal(await wm.wmGet(ref('r2')), 'x')
    assert.equal(await wm.wmGet(ref('r4')), 'p q')
    assert.deepEqual(await Promise.all(['r1', 'r2', 'r3', 'r4', 'r5'].map(operatorRows)), [0, 1, 0, 1, 0])
  })

  test('each batch write is audited with the batch id; a single write has batchId null', async () => {
    const params = { org: ORG, namespace: NS, agent: AGENT, runId: 'r2' }
    const entries = (await call(audit, '/x', params)).body.entries
    assert.equal(entries.length, 1)
    assert.equal(entries[0].batchId, batchId)
    assert.equal(entries[0].action, 'restore')
    assert.equal(entries[0].reason, 'back to the state before the bad deploy')
    assert.deepEqual([entries[0].beforeVersion, entries[0].afterVersion], ['2', '3'])
    const r4 = (await call(audit, '/x', { ...params, runId: 'r4' })).body.entries
    assert.equal(r4[0].batchId, batchId)
    const one = await call(
      single,
      '/x',
      { ...params, runId: 'r5', blockKey: 'checkpoint' },
      { method: 'PUT', body: { content: 'k l m', expectedVersion: '2', reason: 'one by hand' } },
    )
    assert.equal(one.status, 200, JSON.stringify(one.body))
    const r5 = (await call(audit, '/x', { ...params, runId: 'r5' })).body.entries
    assert.equal(r5[0].batchId, null)
  })

  test('retrying the conflicted runs: a preview and a run narrowed to them', async () => {
    const body = {
      filter: FILTER,
      action: 'restore',
      before: AS_OF,
      reason: 'retry',
      runs: [{ org: ORG, namespace: NS, agent: AGENT, runId: 'r1' }],
    }
    const preview = await send({ ...body, dryRun: true })
    assert.equal(preview.status, 200, JSON.stringify(preview.body))
    assert.deepEqual(
      preview.body.items.map((i: Item) => [i.runId, i.fromVersion, i.toVersion, i.action]),
      [['r1', '4', '2', 'restore']],
    )
    const res = await send({ ...body, dryRun: false, token: preview.body.token })
    assert.equal(res.status, 200, JSON.stringify(res.body))
    assert.deepEqual(
      res.body.items.map((i: Item) => [i.runId, i.outcome, i.newVersion]),
      [['r1', 'done', '5']],
    )
    assert.equal(await wm.wmGet(ref('r1')), 'a b')
    // The same token again: every item has moved on since its preview.
    const again = await send({ ...body, dryRun: false, token: preview.body.token })
    assert.deepEqual(
      again.body.items.map((i: Item) => i.outcome),
      ['conflict'],
    )
    assert.equal(await operatorRows('r1'), 1)
  })
})

describe('what each row replaces', () => {
  const NS2 = 'live'
  const ref2 = (runId: string) => ({ ...ref(runId), namespace: NS2 })
  const filter = { org: ORG, namespace: NS2 }
  const agentNow = { actor: AGENT, sourceTrace: 'host-c/pid-3' }
  /** A process of this agent begins run `runId` in NS2 (now, unless `now` says when). */
  const begin = (runId: string, goal: string, now?: Parameters<typeof runBegin>[1]) =>
    runBegin({ org: ORG, namespace: NS2, agent: AGENT, userId: '', sessionId: '', runId, goal }, now)

  before(async () => {
    // busy: running, checkpointed just now. edited: finished, its latest version an operator's edit.
    await begin('busy', 'still going')
    await wm.wmSet(ref2('busy'), 'step 1', agentNow)
    await begin('edited', 'fixed by hand', at(T0))
    await wm.wmSet(ref2('edited'), 'e1', { ...agentNow, now: at(T0) })
    await runComplete({ org: ORG, namespace: NS2, agent: AGENT, runId: 'edited', status: 'failed' }, at(T1))
    const put = await call(
      single,
      '/x',
      { org: ORG, namespace: NS2, agent: AGENT, runId: 'edited', blockKey: 'checkpoint' },
      {
        method: 'PUT',
        body: { content: 'e1 fixed by hand', expectedVersion: '1', reason: 'colleague fix' },
      },
    )
    assert.equal(put.status, 200, JSON.stringify(put.body))
  })

  test("a running run with a recent checkpoint is skipped as running; an operator's write is named as what is replaced", async () => {
    const res = await send({ filter, action: 'clear', dryRun: true })
    assert.equal(res.status, 200, JSON.stringify(res.body))
    const items = byRun(res.body.items)
    assert.deepEqual(
      [items.busy.action, items.busy.why, items.busy.status, items.busy.current!.version],
      ['skip', 'running', 'running', '1'],
    )
    assert.equal(items.edited.action, 'clear')
    assert.equal(items.edited.current!.byOperator, true)
    assert.match(items.edited.current!.actor, /^operator:/)
    assert.deepEqual(items.edited.warnings, ["replaces an operator's write"])
  })

  test('force: the running run is previewed with a warning, and written', async () => {
    const body = { filter, action: 'clear', force: true, reason: 'stop this one' }
    const preview = await send({ ...body, dryRun: true })
    assert.equal(preview.status, 200, JSON.stringify(preview.body))
    const busy = byRun(preview.body.items).busy
    assert.deepEqual([busy.action, busy.warnings], ['clear', ['running']])
    // A token for a forced preview does not serve an unforced run, nor the other way round.
    const unforced = await send({ ...body, force: undefined, dryRun: false, token: preview.body.token })
    assert.equal(unforced.status, 409, JSON.stringify(unforced.body))
    assert.equal(await wm.wmGet(ref2('busy')), 'step 1')
    const res = await send({ ...body, dryRun: false, token: preview.body.token })
    assert.equal(res.status, 200, JSON.stringify(res.body))
    assert.deepEqual(byRun(res.body.items).busy.outcome, 'done')
    assert.equal(await wm.wmGet(ref2('busy')), null)
  })

  test('without force, a run that started writing after the preview is left alone', async () => {
    await begin('woke', 'was idle', at(T0))
    await wm.wmSet(ref2('woke'), 'w1', agentNow)
    await runComplete({ org: ORG, namespace: NS2, agent: AGENT, runId: 'woke', status: 'failed' })
    const body = { filter: { ...filter, q: 'woke' }, action: 'clear', reason: 'clear it' }
    const preview = await send({ ...body, dryRun: true })
    assert.deepEqual(
      preview.body.items.map((i: Item) => [i.runId, i.action]),
      [['woke', 'clear']],
    )
    // A new process resumes the run (its checkpoint is minutes old): its next checkpoint would undo the clear.
    await begin('woke', 'was idle')
    const res = await send({ ...body, dryRun: false, token: preview.body.token })
    assert.equal(res.status, 200, JSON.stringify(res.body))
    const woke = byRun(res.body.items).woke
    assert.equal(woke.outcome, 'skipped', JSON.stringify(woke))
    assert.match(woke.message!, /still running/)
    assert.equal(await wm.wmGet(ref2('woke')), 'w1')
  })
})
