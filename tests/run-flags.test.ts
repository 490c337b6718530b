/**
 * Run flags against hand-built histories: each flag on and off (including one that turns off when
 * its condition ends), the flag filter with keyset pagination over runs that tie on started_at,
 * and a 400 for an unknown flag. Every write goes through Loom's own write functions, so the
 * materialized views of the run index see them as they would see an agent's.
 */
import assert from 'node:assert/strict'
import { before, describe, test } from 'node:test'
import { z } from 'zod'
import { decodeCursor } from '../lib/api/cursor'
import { command, queryRows } from '../lib/clickhouse/query'
import { insertRows } from '../lib/loom/insert'
import { getConfig } from '../lib/config'
import { contextOffload } from '../lib/loom/context-blobs'
import { flagIndexNames } from '../lib/derived/names'
import { deriveNow } from '../lib/derived/derive'
import { runBegin, runComplete } from '../lib/loom/runs'
import { tableNames } from '../lib/loom/tables'
import { wmSet } from '../lib/loom/working-memory'
import { flagsOfRuns, runKey } from '../lib/run-set/run-flags'
import { getRunDetail } from '../lib/queries/run-detail'
import { listRuns } from '../lib/queries/runs'
import { ensureReady } from '../lib/server/ready'
import { RUN_FLAGS } from '../lib/triage/flags'
import { GET as runsRoute } from '../app/api/runs/route'
import { assertRefused, call } from './helpers/routes'
import { useFreshEngine } from './helpers/engine'

useFreshEngine('run-flags')

const ORG = 'flags'
const NS = 'ns'
const T0 = Date.parse('2026-11-20T08:00:00.000Z')
const at = (offsetMs: number) => () => new Date(T0 + offsetMs)
const S = 1000
const MIN = 60 * S

const run = (agent: string, runId: string, userId = 'u', sessionId = 's') => ({
  org: ORG,
  namespace: NS,
  agent,
  userId,
  sessionId,
  runId,
})
const cp = (r: ReturnType<typeof run>) => ({ ...r, blockKey: 'checkpoint' })
const agentCtx = (trace: string, offsetMs: number) => ({ actor: 'agent', sourceTrace: trace, now: at(offsetMs) })

/** The run index's flag tables (the candidates table among them), read and changed directly with the query functions. */
function flagIndex() {
  return flagIndexNames(getConfig().databases.runs)
}

async function flagsOf(agent: string, runId: string, nowMs = T0 + 5 * MIN): Promise<string[]> {
  const key = { org: ORG, namespace: NS, agent, run_id: runId }
  const m = await flagsOfRuns([key], true, undefined, new Date(nowMs))
  return m.get(runKey(key)) ?? []
}

/** Checkpoints at the given offsets from `start`, all by one process. */
async function checkpoints(r: ReturnType<typeof run>, trace: string, offsets: number[]) {
  for (const [i, o] of offsets.entries()) await wmSet(cp(r), `{"done": ${i + 1}}`, agentCtx(trace, o))
}

/** Begins the run at T0 and has one process checkpoint it at the given offsets. */
async function begun(r: ReturnType<typeof run>, offsets: number[] = [], goal = 'g') {
  await runBegin({ ...r, goal }, at(0))
  await checkpoints(r, 'host-a/1', offsets)
  return r
}

before(async () => {
  await ensureReady()
})

describe('each flag, on and off', () => {
  test('a run that began once, checkpointed steadily by one process and succeeded has no flags', async () => {
    const r = await begun(run('plain', 'p-1'), [10 * S, 20 * S, 30 * S, 40 * S], 'plain')
    await runComplete({ ...r, status: 'succeeded' }, at(50 * S))
    assert.deepEqual(await flagsOf('plain', 'p-1'), [])
  })

  test('resumed: a second begin (attempt 2)', async () => {
    const r = await begun(run('resumer', 'r-attempt'), [10 * S, 20 * S])
    assert.deepEqual(await flagsOf('resumer', 'r-attempt'), [])
    await runBegin({ ...r, goal: 'g' }, at(30 * S))
    assert.deepEqual(await flagsOf('resumer', 'r-attempt'), ['resumed'])
  })

  test('resumed: another process wrote the checkpoint (attempt 1), not an operator', async () => {
    const r = await begun(run('resumer', 'r-process'), [10 * S, 20 * S])
    // An operator's edit from another trace is not a resume.
    await wmSet(cp(r), '{"done": 5}', { actor: 'operator:alice', sourceTrace: 'console/1', now: at(25 * S) })
    await runComplete({ ...r, status: 'succeeded' }, at(26 * S))
    assert.deepEqual(await flagsOf('resumer', 'r-process'), [])
    await wmSet(cp(r), '{"done": 6}', agentCtx('host-b/2', 30 * S))
    assert.deepEqual(await flagsOf('resumer', 'r-process'), ['resumed'])
  })

  test('resumed: a long gap by the same process (over max(8 × median, 60 s)); a shorter one is not', async () => {
    const long = await begun(run('gapper', 'g-long'), [10 * S, 20 * S, 30 * S, 40 * S, 40 * S + 30 * MIN])
    await runComplete({ ...long, status: 'succeeded' }, at(41 * MIN))
    assert.deepEqual(await flagsOf('gapper', 'g-long'), ['resumed'])

    const short = await begun(run('gapper', 'g-short'), [10 * S, 20 * S, 30 * S, 40 * S, 95 * S])
    await runComplete({ ...short, status: 'succeeded' }, at(100 * S))
    assert.deepEqual(await flagsOf('gapper', 'g-short'), [], '55 s is under max(8 × 10 s, 60 s)')
  })

  test('near_limit: a checkpoint at ≥ 90% of char_limit; off when a smaller one follows', async () => {
    const r = await begun(run('sizer', 'n-1'))
    await wmSet(cp(r), 'x'.repeat(89), agentCtx('host-a/1', 10 * S), { charLimit: 100 })
    assert.deepEqual(await flagsOf('sizer', 'n-1'), [], '89% is under the threshold')
    await wmSet(cp(r), 'x'.repeat(90), agentCtx('host-a/1', 20 * S))
    assert.deepEqual(await flagsOf('sizer', 'n-1'), ['near_limit'])
    await wmSet(cp(r), 'x'.repeat(10), agentCtx('host-a/1', 30 * S))
    assert.deepEqual(await flagsOf('sizer', 'n-1'), [])
  })

  test('tie: two rows share a version of one block', async () => {
    await begun(run('tier', 't-1'), [10 * S, 20 * S])
    assert.deepEqual(await flagsOf('tier', 't-1'), [])
    // Two writers that both read version 2 and wrote 3 (what Loom's unchecked set allows).
    const row = (content: string, trace: string) => ({
      org: ORG,
      namespace: NS,
      agent: 'tier',
      user_id: 'u',
      session_id: 's',
      run_id: 't-1',
      block_key: 'notes',
      content,
      char_limit: 4096,
      version: '3',
      is_deleted: 0,
      actor: 'agent',
      source_trace: trace,
      updated_at: '2026-11-20 08:00:30.000',
    })
    await insertRows(tableNames().workingMemory, [row('from a', 'host-a/1')])
    const tieCandidates = async () => {
      await deriveNow()
      const ix = flagIndex()
      const rows = await queryRows(
        `SELECT DISTINCT run_id FROM ${ix.candidates} WHERE kind = 'tie' AND org = {org:String} AND agent = 'tier'`,
        { org: ORG },
        z.object({ run_id: z.string() }),
      )
      return rows.map((x) => x.run_id)
    }
    // Versions written in turn are not candidates; the second writer of version 3 makes the run one.
    assert.deepEqual(await tieCandidates(), [])
    await insertRows(tableNames().workingMemory, [row('from b', 'host-b/1')])
    assert.deepEqual(await tieCandidates(), ['t-1'])
    assert.deepEqual(await flagsOf('tier', 't-1'), ['tie'])
    const listed = await listRuns({ filter: { org: ORG, flag: ['tie'] }, limit: 10 })
    assert.deepEqual(
      listed.runs.map((x) => x.runId),
      ['t-1'],
    )
  })

  test('missing_blob: the checkpoint names a blob_key with no blob row; off once the blob is there', async () => {
    const r = await begun(run('offloader', 'b-1'))
    await wmSet(cp(r), '{"blob_key": "blob-late", "cursor": 3}', agentCtx('host-a/1', 10 * S))
    assert.deepEqual(await flagsOf('offloader', 'b-1'), ['missing_blob'])
    await contextOffload(
      { ...r, summary: 's', content: 'big', ttlSeconds: 86_400 * 365, blobKey: 'blob-late' },
      at(20 * S),
    )
    assert.deepEqual(await flagsOf('offloader', 'b-1'), [])
    // A checkpoint that is not JSON names no blob.
    await wmSet(cp(r), 'plain text with blob_key in it', agentCtx('host-a/1', 30 * S))
    assert.deepEqual(await flagsOf('offloader', 'b-1'), [])
  })

  test('crash_loop: attempt 3 and not succeeded; off when it succeeds', async () => {
    const r = run('looper', 'c-1')
    for (const i of [0, 1, 2]) await runBegin({ ...r, goal: 'g' }, at(i * 10 * S))
    assert.deepEqual(await flagsOf('looper', 'c-1'), ['resumed', 'crash_loop'])
    await runComplete({ ...r, status: 'failed' }, at(40 * S))
    assert.deepEqual(await flagsOf('looper', 'c-1'), ['resumed', 'crash_loop'])
    await runBegin({ ...r, goal: 'g' }, at(50 * S))
    await runComplete({ ...r, status: 'succeeded' }, at(60 * S))
    assert.deepEqual(await flagsOf('looper', 'c-1'), ['resumed'])
  })

  test('stalled: running with no write for max(15 min, 10 × median interval); off when it writes again', async () => {
    const fast = await begun(run('staller', 's-fast'), [1 * MIN, 2 * MIN, 3 * MIN])
    assert.deepEqual(
      await flagsOf('staller', 's-fast', T0 + 17 * MIN),
      [],
      '14 minutes of silence is under the 15-minute floor',
    )
    assert.deepEqual(await flagsOf('staller', 's-fast', T0 + 19 * MIN), ['stalled'])
    await wmSet(cp(fast), '{"done": 4}', agentCtx('host-a/1', 18 * MIN))
    // A new write ends the stall (the 15-minute gap before it is a resume point: over 8 × 1 min).
    assert.deepEqual(await flagsOf('staller', 's-fast', T0 + 19 * MIN), ['resumed'])

    // Checkpoints every 5 minutes: stalled only after 50 minutes.
    const slow = await begun(run('staller', 's-slow'), [5 * MIN, 10 * MIN, 15 * MIN, 20 * MIN])
    assert.deepEqual(await flagsOf('staller', 's-slow', T0 + 60 * MIN), [])
    assert.deepEqual(await flagsOf('staller', 's-slow', T0 + 71 * MIN), ['stalled'])
    await runComplete({ ...slow, status: 'failed' }, at(72 * MIN))
    assert.deepEqual(await flagsOf('staller', 's-slow', T0 + 200 * MIN), [], 'a finished run is not stalled')
  })

  test('near_miss: a checkpoint under another session or agent with the same run_id', async () => {
    // Began under s1, resumed under s2: the checkpoint it wrote under s1 is invisible to s2.
    await begun(run('reporter', 'm-1', 'u7', 's1'), [10 * S])
    assert.deepEqual(await flagsOf('reporter', 'm-1'), [])
    const second = run('reporter', 'm-1', 'u7', 's2')
    await runBegin({ ...second, goal: 'g' }, at(20 * S))
    assert.deepEqual(await flagsOf('reporter', 'm-1'), ['resumed', 'near_miss'])

    // Another agent with the same run_id: the one without a checkpoint has a near miss.
    await begun(run('agent-one', 'shared-id'), [10 * S])
    const a2 = run('agent-two', 'shared-id')
    await runBegin({ ...a2, goal: 'g' }, at(5 * S))
    assert.deepEqual(await flagsOf('agent-one', 'shared-id'), [])
    assert.deepEqual(await flagsOf('agent-two', 'shared-id'), ['near_miss'])
  })

  test('near_miss candidates: a second identity marks the run as shared; arrival rows (written by earlier versions) are still read', async () => {
    const ix = flagIndex()
    const idsIn = async (kind: string) => {
      await deriveNow()
      const rows = await queryRows(
        `SELECT DISTINCT run_id FROM ${ix.candidates} WHERE kind = {kind:String} AND org = {org:String} ORDER BY run_id`,
        { kind, org: ORG },
        z.object({ run_id: z.string() }),
      )
      return rows.map((r) => r.run_id)
    }
    // The near-miss test's runs (two sessions; two agents) are shared; a run written under one identity is not.
    const shared = await idsIn('shared')
    assert.ok(shared.includes('m-1') && shared.includes('shared-id'), `shared: ${shared.join(', ')}`)
    assert.ok(!shared.includes('p-1'), 'a run with one identity is not shared')

    // Two identities in one insert: shared at once.
    const row = (agent: string, session: string) => ({
      org: ORG,
      namespace: NS,
      agent,
      user_id: 'u',
      session_id: session,
      run_id: 'one-insert',
      block_key: 'checkpoint',
      content: '{"done": 1}',
      char_limit: 1000,
      version: 1,
      updated_at: '2026-11-20 09:00:00.000',
      actor: 'agent',
      source_trace: 'h/1',
      is_deleted: 0,
    })
    await insertRows(tableNames().workingMemory, [row('racer', 's1'), row('racer', 's2')])
    assert.ok((await idsIn('shared')).includes('one-insert'))

    // Arrival rows, which earlier versions wrote for racing first writes, are still read: simulated by
    // removing the run's `shared` row and leaving both identities as `arrival` rows.
    const listed = async () =>
      (await listRuns({ filter: { org: ORG, agent: 'racer', flag: ['near_miss'] }, limit: 10 })).runs.map(
        (r) => r.runId,
      )
    assert.deepEqual(await listed(), ['one-insert'])
    await command(
      `ALTER TABLE ${ix.candidates} DELETE WHERE kind = 'shared' AND org = {org:String} AND run_id = 'one-insert' SETTINGS mutations_sync = 1`,
      { org: ORG },
    )
    await command(
      `INSERT INTO ${ix.candidates} (kind, org, namespace, run_id, agent, user_id, session_id, detail, seen_at) VALUES
      ('arrival', {org:String}, {ns:String}, 'one-insert', 'racer', 'u', 's1', '', now64(3)), ('arrival', {org:String}, {ns:String}, 'one-insert', 'racer', 'u', 's2', '', now64(3))`,
      { org: ORG, ns: NS },
    )
    assert.deepEqual(await listed(), ['one-insert'], 'found through arrivals')
    // And the candidates are what the filter checks: without either, the run is not listed.
    await command(
      `ALTER TABLE ${ix.candidates} DELETE WHERE kind = 'arrival' AND org = {org:String} AND run_id = 'one-insert' SETTINGS mutations_sync = 1`,
      { org: ORG },
    )
    assert.deepEqual(await listed(), [])
    const whole = await listRuns({
      filter: { org: ORG, agent: 'racer', flag: ['near_miss'] },
      limit: 10,
      flagScan: 'exhaustive',
    })
    assert.deepEqual(
      whole.runs.map((r) => r.runId),
      ['one-insert'],
      'the exhaustive scan does not depend on the candidates',
    )
    // Put the run back for the tests that follow (a later write to the run marks it shared again).
    await insertRows(tableNames().workingMemory, [{ ...row('racer', 's1'), version: 2 }])
    assert.deepEqual(await listed(), ['one-insert'])
  })

  test('near_limit and missing_blob candidates: the runs that ever wrote such a checkpoint, checked exactly when listed', async () => {
    const ix = flagIndex()
    const r = await begun(run('marker', 'mk-1'))
    await wmSet(cp(r), 'x'.repeat(95), agentCtx('host-a/1', 10 * S), { charLimit: 100 })
    await wmSet(cp(r), '{"blob_key": "never-offloaded"}', agentCtx('host-a/1', 20 * S), { charLimit: 100 })
    await deriveNow()
    const marks = await queryRows(
      `SELECT DISTINCT kind FROM ${ix.candidates} WHERE kind IN ('near_limit', 'missing_blob') AND org = {org:String} AND agent = 'marker' ORDER BY kind`,
      { org: ORG },
      z.object({ kind: z.string() }),
    )
    assert.deepEqual(
      marks.map((m) => m.kind),
      ['missing_blob', 'near_limit'],
    )
    const listed = async (flag: 'near_limit' | 'missing_blob') =>
      (await listRuns({ filter: { org: ORG, agent: 'marker', flag: [flag] }, limit: 10 })).runs.map((x) => x.runId)
    // The latest checkpoint names a missing blob and is far below its limit: a candidate for both, carrying one.
    assert.deepEqual(await listed('missing_blob'), ['mk-1'])
    assert.deepEqual(await listed('near_limit'), [])
    // The candidates are what the filter reads: without its mark the run is not listed.
    await command(
      `ALTER TABLE ${ix.candidates} DELETE WHERE kind IN ('near_limit', 'missing_blob') AND org = {org:String} AND agent = 'marker' SETTINGS mutations_sync = 1`,
      { org: ORG },
    )
    assert.deepEqual(await listed('missing_blob'), [])
    await wmSet(cp(r), '{"blob_key": "never-offloaded", "step": 2}', agentCtx('host-a/1', 30 * S), { charLimit: 100 })
    assert.deepEqual(await listed('missing_blob'), ['mk-1'], 'the next such write marks it again')
  })

  test('RunSummary.flags in the list and the run detail agree', async () => {
    const page = await listRuns({ filter: { org: ORG, agent: 'looper' }, limit: 10 })
    assert.deepEqual(
      page.runs.map((r) => [r.runId, r.flags]),
      [['c-1', ['resumed']]],
    )
    const detail = await getRunDetail({ org: ORG, namespace: NS, agent: 'reporter', runId: 'm-1' })
    // Still running, with no write for days (the list judges stalls by the clock, not the test's time).
    assert.deepEqual(detail.run.flags, ['resumed', 'near_miss', 'stalled'])
  })
})

describe('flag filter', () => {
  test('keeps the runs that carry every named flag, across keyset pages with started_at ties', async () => {
    // Five crash loops started at the same instant under different agents, two of them near a limit.
    for (const i of [1, 2, 3, 4, 5]) {
      const r = run(`tied-${i}`, 'loop')
      for (const k of [0, 1, 2])
        await runBegin({ ...r, goal: 'tied' }, k === 0 ? at(3 * 3600_000) : at(3 * 3600_000 + k * S))
      if (i % 2 === 0)
        await wmSet(cp(r), 'y'.repeat(95), agentCtx('host-a/1', 3 * 3600_000 + 10 * S), { charLimit: 100 })
    }
    const pages: string[][] = []
    let cursor: string | null = null
    do {
      const page: Awaited<ReturnType<typeof listRuns>> = await listRuns({
        filter: { org: ORG, flag: ['crash_loop'] },
        cursor: cursor ? decodeCursor(cursor)! : undefined,
        limit: 2,
      })
      pages.push(page.runs.map((r) => `${r.agent}/${r.runId}`))
      for (const r of page.runs)
        assert.ok(r.flags.includes('crash_loop'), `${r.agent} carries the flag it was filtered by`)
      cursor = page.nextCursor
    } while (cursor && pages.length < 10)
    assert.deepEqual(pages.flat(), ['tied-5/loop', 'tied-4/loop', 'tied-3/loop', 'tied-2/loop', 'tied-1/loop'])
    assert.deepEqual(
      pages.map((p) => p.length),
      [2, 2, 1],
    )

    const both = await listRuns({ filter: { org: ORG, flag: ['crash_loop', 'near_limit'] }, limit: 50 })
    assert.deepEqual(
      both.runs.map((r) => r.agent),
      ['tied-4', 'tied-2'],
    )
    const withOther = await listRuns({
      filter: { org: ORG, agent: 'tied-2', status: 'running', flag: ['near_limit'] },
      limit: 50,
    })
    assert.deepEqual(
      withOther.runs.map((r) => r.agent),
      ['tied-2'],
    )
    const none = await listRuns({ filter: { org: ORG, flag: ['tie', 'crash_loop'] }, limit: 50 })
    assert.deepEqual(none.runs, [])
  })

  test('every flag filter returns exactly the runs whose summary carries the flag', async () => {
    const all = await listRuns({ filter: { org: ORG }, limit: 200 })
    for (const f of RUN_FLAGS) {
      const filtered = await listRuns({ filter: { org: ORG, flag: [f] }, limit: 200 })
      assert.deepEqual(
        filtered.runs.map((r) => `${r.agent}/${r.runId}`),
        all.runs.filter((r) => r.flags.includes(f)).map((r) => `${r.agent}/${r.runId}`),
        `flag=${f}`,
      )
    }
    assert.ok(
      all.runs.some((r) => r.flags.length === 0),
      'some runs carry no flag',
    )
  })

  test('a bounded scan: pages that stop early say how far they looked, go on from there, and together hold every match', async () => {
    const all = await listRuns({ filter: { org: ORG }, limit: 200 })
    assert.ok(all.runs.length > 6, `enough runs to cut (${all.runs.length})`)
    for (const f of RUN_FLAGS) {
      const expected = all.runs.filter((r) => r.flags.includes(f)).map((r) => `${r.agent}/${r.runId}`)
      const seen: string[] = []
      let cursor: string | null = null
      let cut = 0
      let pages = 0
      do {
        const page: Awaited<ReturnType<typeof listRuns>> = await listRuns({
          filter: { org: ORG, flag: [f] },
          cursor: cursor ? decodeCursor(cursor)! : undefined,
          limit: 50,
          flagScanBudget: 3,
        })
        seen.push(...page.runs.map((r) => `${r.agent}/${r.runId}`))
        if (page.searchedTo !== undefined) {
          cut++
          assert.ok(page.nextCursor, 'a page that stopped early has a cursor to go on')
          assert.ok(page.runs.length < 50)
          // Every run kept started at or after the point the search reached.
          for (const r of page.runs)
            assert.ok(Date.parse(r.startedAt) >= Date.parse(page.searchedTo), `${r.runId} before ${page.searchedTo}`)
        }
        cursor = page.nextCursor
        pages++
      } while (cursor && pages < 200)
      assert.deepEqual(seen, expected, `flag=${f}: the pages together`)
      // More matches than the budget cannot fit in one page (pre-filters can leave fewer rows to read).
      if (expected.length > 3) assert.ok(cut > 0, `flag=${f}: a budget of 3 rows cuts the scan`)
      // The exhaustive mode (batches) finds the same runs in one page.
      const whole = await listRuns({ filter: { org: ORG, flag: [f] }, limit: 200, flagScan: 'exhaustive' })
      assert.deepEqual(
        whole.runs.map((r) => `${r.agent}/${r.runId}`),
        expected,
        `flag=${f}: exhaustive`,
      )
      assert.equal(whole.searchedTo, undefined)
    }
  })

  test('GET /api/runs?flag= : repeatable, and an unknown flag is a 400 naming the field', async () => {
    const ok = await call(runsRoute, `/api/runs?org=${ORG}&flag=crash_loop&flag=near_limit`)
    assert.equal(ok.status, 200)
    assert.deepEqual(
      ok.body.runs.map((r: { agent: string }) => r.agent),
      ['tied-4', 'tied-2'],
    )
    const bad = await call(runsRoute, `/api/runs?flag=crash_loop&flag=bogus`)
    assertRefused(bad, 'flag')
    assert.match(bad.body.error.message, /flag must be one of resumed, near_miss/)
  })
})

describe('cohorts', () => {
  test('read from the derived triage table, they equal the cohorts grouped from the whole list (flags turned on and off by writes above)', async () => {
    const { runCohorts } = await import('../lib/queries/cohorts')
    const { groupCohorts } = await import('../lib/cohorts/group')
    const all = await listRuns({ filter: { org: ORG }, limit: 200 })
    const expected = groupCohorts(all.runs, { org: ORG })
    assert.ok(expected.length >= 3, `several cohorts among the hand-built runs (${expected.length})`)
    // Near misses made by writes above, decided by batches (which check them only when the run_id is a candidate).
    assert.ok(
      expected.some((c) => c.flags.includes('near_miss')),
      'a near-miss cohort',
    )
    const got = await runCohorts({ org: ORG })
    assert.deepEqual(got, { cohorts: expected, total: expected.length, capped: [], searchedTo: null })
    // A limit keeps the largest ones and still counts them all.
    const two = await runCohorts({ org: ORG }, undefined, 2)
    assert.deepEqual(two, { cohorts: expected.slice(0, 2), total: expected.length, capped: [], searchedTo: null })
    // A flag the filter names must hold too (resumed, which no cohort is made of, included).
    const resumed = await runCohorts({ org: ORG, flag: ['resumed'] })
    assert.deepEqual(
      resumed.cohorts,
      groupCohorts(
        all.runs.filter((r) => r.flags.includes('resumed')),
        { org: ORG, flag: ['resumed'] },
      ),
    )
  })

  test('a run that gains a problem flag joins a cohort at the next derivation, and leaves it when the flag ends', async () => {
    const { runCohorts } = await import('../lib/queries/cohorts')
    const r = await begun(run('cohort-agent', 'c-1'), [], 'cohort')
    await wmSet(cp(r), JSON.stringify({ done: 1, pad: 'x'.repeat(950) }), agentCtx('host-c/1', 10 * S), {
      charLimit: 1000,
    })
    await deriveNow()
    const mine = async () =>
      (await runCohorts({ org: ORG, agent: 'cohort-agent' })).cohorts.map((c) => [c.status, c.flags, c.runs, c.sample])
    // Running, last written weeks before the test's clock: stalled as well, judged now.
    assert.deepEqual(await mine(), [['running', ['near_limit', 'stalled'], 1, [`${ORG}/${NS}/cohort-agent/c-1`]]])
    await wmSet(cp(r), '{"done": 2}', agentCtx('host-c/1', 20 * S))
    await runComplete({ ...r, status: 'succeeded' }, at(30 * S))
    await deriveNow()
    assert.deepEqual(await mine(), [])
  })
})
