/**
 * The two forms of the run flags agree: the SQL conditions a flag filter selects with
 * (flagFilterSql) and the rules lib/triage/decide.ts applies to each run's merged columns (the
 * flags a list page or run header shows), both compiled from lib/triage/rules.ts, for every run of
 * the seeded demo and of a few hand-built histories aimed at the edges (operator writes between agent
 * writes, operator-only blocks, several blocks, writes at one moment, no run row, no writes yet, a
 * deleted checkpoint that named a blob), at several moments. tests/triage-rules-parity.test.ts does
 * the same over generated columns.
 */
import assert from 'node:assert/strict'
import { before, test } from 'node:test'
import { z } from 'zod'
import { selectRows } from '../lib/clickhouse/query'
import { insertRows } from '../lib/loom/insert'
import { toChTime } from '../lib/tables/time'
import { trusted } from '../lib/clickhouse/sql'
import { getConfig } from '../lib/config'
import { flagIndexNames } from '../lib/derived/names'
import { deriveNow } from '../lib/derived/derive'
import { runBegin, runComplete } from '../lib/loom/runs'
import { tableNames } from '../lib/loom/tables'
import { wmDelete, wmSet } from '../lib/loom/working-memory'
import { flagFilterSql, flagsOfRuns, runKey, WRITES_DECIDED_IN_NODE, type FlaggedRun } from '../lib/run-set/run-flags'
import { ensureReady } from '../lib/server/ready'
import { RUN_FLAGS } from '../lib/triage/flags'
import { useFreshEngine } from './helpers/engine'
import { NOW, seededDemo } from './helpers/seeded-demo'
import { statementsSent } from './helpers/statements'

useFreshEngine('run-flags-parity')

const MIN = 60_000
const keySchema = z.object({ org: z.string(), namespace: z.string(), agent: z.string(), run_id: z.string() })

before(async () => {
  await ensureReady()
  await seededDemo()
  const base = NOW.getTime() - 6 * 60 * MIN
  const id = (agent: string, runId: string, userId = 'u', sessionId = 's') => ({
    org: 'edge',
    namespace: 'ns',
    agent,
    userId,
    sessionId,
    runId,
  })
  const cp = (r: ReturnType<typeof id>) => ({ ...r, blockKey: 'checkpoint' })
  const agent = (trace: string, offset: number) => ({
    actor: 'agent',
    sourceTrace: trace,
    now: () => new Date(base + offset),
  })
  const operator = (offset: number) => ({
    actor: 'operator:alice',
    sourceTrace: 'console',
    now: () => new Date(base + offset),
  })

  // Operator writes inside an agent's steady rhythm, then a gap that only counts from the operator's write.
  const a = id('edge-agent', 'run-operator-gap')
  await runBegin({ ...a, goal: 'operator in between' }, () => new Date(base))
  for (const [i, o] of [1, 2, 3, 4].entries()) await wmSet(cp(a), `{"n": ${i}}`, agent('p1', o * MIN))
  await wmSet(cp(a), '{"n": "fixed"}', operator(60 * MIN))
  await wmSet(cp(a), '{"n": 5}', agent('p1', 61 * MIN))

  // Two blocks (identities) of one run: one steady, one with a long gap (30 min after a 1-min rhythm).
  const b1 = id('edge-agent', 'run-two-blocks', 'u1', 's1')
  const b2 = id('edge-agent', 'run-two-blocks', 'u2', 's2')
  for (const [i, o] of [1, 2, 3].entries()) await wmSet(cp(b1), `{"n": ${i}}`, agent('p2', o * MIN))
  for (const [i, o] of [1, 2, 3, 4, 34].entries()) await wmSet(cp(b2), `{"n": ${i}}`, agent('p2', o * MIN))
  // The same, with a 28-min gap after a 1-min and a 28-min interval: the median (14.5 min) makes it usual.
  const f = id('edge-agent', 'run-usual-gap')
  for (const [i, o] of [1, 2, 30].entries()) await wmSet(cp(f), `{"n": ${i}}`, agent('p6', o * MIN))

  // A checkpoint that named a missing blob, then was cleared; and one that still names it.
  const c = id('edge-agent', 'run-cleared-blob')
  await runBegin({ ...c, goal: 'cleared blob' }, () => new Date(base))
  await wmSet(cp(c), '{"blob_key": "gone-1"}', agent('p3', MIN))
  await wmDelete(cp(c), operator(2 * MIN))
  const d = id('edge-agent', 'run-named-blob')
  await runBegin({ ...d, goal: 'named blob' }, () => new Date(base))
  await wmSet(cp(d), '{"blob_key": "gone-2"}', agent('p4', MIN))

  // A 10-min agent rhythm with a burst of operator writes, then an agent write 13 min after the last
  // of them: the rhythm (agent writes only) makes that usual, and 100 min without a write stalls it.
  const h = id('edge-agent', 'run-operator-burst')
  await runBegin({ ...h, goal: 'burst' }, () => new Date(base))
  for (const [i, o] of [0, 10, 20, 30, 40].entries()) await wmSet(cp(h), `{"n": ${i}}`, agent('p7', o * MIN))
  for (const o of [41, 42, 43, 44, 45, 46, 47]) await wmSet(cp(h), `{"op": ${o}}`, operator(o * MIN))
  await wmSet(cp(h), '{"n": 5}', agent('p7', 60 * MIN))

  // Begun 5 min before NOW, nothing written yet: its start, not the epoch, is its last activity.
  const k = id('edge-agent', 'run-just-begun')
  await runBegin({ ...k, goal: 'fresh' }, () => new Date(NOW.getTime() - 5 * MIN))

  // A third attempt that failed (crash loop), and a block whose version was written twice (tie).
  const g = id('edge-agent', 'run-third-attempt')
  for (const i of [0, 1, 2]) await runBegin({ ...g, goal: 'again' }, () => new Date(base + i * MIN))
  await runComplete({ ...g, status: 'failed' }, () => new Date(base + 3 * MIN))
  const twice = (trace: string) => ({
    org: 'edge',
    namespace: 'ns',
    agent: 'edge-agent',
    user_id: 'u',
    session_id: 's',
    run_id: 'run-tie',
    block_key: 'notes',
    content: trace,
    char_limit: 4096,
    version: '1',
    is_deleted: 0,
    actor: 'agent',
    source_trace: trace,
    updated_at: toChTime(new Date(base + MIN)),
  })
  await insertRows(tableNames().workingMemory, [twice('host-a/1')])
  await insertRows(tableNames().workingMemory, [twice('host-b/1')])

  // Only an operator wrote its checkpoint, from two consoles, hours apart: no agent write, so no resume.
  const o = id('edge-agent', 'run-operator-only')
  await runBegin({ ...o, goal: 'operator only' }, () => new Date(base))
  await wmSet(cp(o), '{"op": 1}', { ...operator(MIN), sourceTrace: 'console-1' })
  await wmSet(cp(o), '{"op": 2}', { ...operator(150 * MIN), sourceTrace: 'console-2' })

  // No run row; three agent writes at one moment (a median interval of 0), then one 61 s later: over the
  // 60 s floor. In its second block, the same with 59 s: under it.
  const m1 = id('edge-agent', 'run-same-moment', 'u1', 's1')
  const m2 = id('edge-agent', 'run-same-moment', 'u2', 's2')
  for (const [i, o] of [0, 0, 0, 61 / 60].entries()) await wmSet(cp(m1), `{"n": ${i}}`, agent('p8', o * MIN))
  const m3 = id('edge-agent', 'run-same-moment-under')
  for (const [i, o] of [0, 0, 0, 59 / 60].entries()) await wmSet(cp(m3), `{"n": ${i}}`, agent('p9', o * MIN))
  await wmSet(cp(m2), '{"n": 0}', agent('p8', 0))

  // Running, checkpointing every 2 min until 2 min before NOW: stalled over 20 min (10 × 2 min) after its last write.
  const e = id('edge-agent', 'run-steady-running')
  const late = NOW.getTime() - base
  await runBegin({ ...e, goal: 'steady' }, () => new Date(base + late - 12 * MIN))
  for (const [i, o] of [10, 8, 6, 4, 2].entries()) await wmSet(cp(e), `{"n": ${i}}`, agent('p5', late - o * MIN))
})

test('the flags shown for every run equal what each flag filter selects, at several moments', async () => {
  const ix = flagIndexNames(getConfig().databases.runs)
  await deriveNow()
  const runs: FlaggedRun[] = await selectRows(
    trusted(`SELECT DISTINCT org, namespace, agent, run_id FROM ${ix.flags}`),
    keySchema,
  )
  assert.ok(runs.length >= 40, `${runs.length} runs`)
  const carried = new Set<string>()
  const moments = [0, 10 * MIN, 21 * MIN, 6 * 60 * MIN, 3 * 86_400_000].map((d) => new Date(NOW.getTime() + d))
  for (const now of moments) {
    const shown = await flagsOfRuns(runs, true, undefined, now)
    for (const f of RUN_FLAGS.filter((x) => x !== 'near_miss')) {
      const selected = await selectRows(await flagFilterSql([f], {}, now), keySchema)
      const bySql = selected.map(runKey).sort()
      const byRules = runs
        .filter((r) => shown.get(runKey(r))?.includes(f))
        .map(runKey)
        .sort()
      assert.deepEqual(byRules, bySql, `${f} at ${now.toISOString()}`)
      if (bySql.length) carried.add(f)
    }
  }
  // Every flag the rules decide is carried by some run at some moment, so each comparison above meant something.
  assert.deepEqual([...carried].sort(), RUN_FLAGS.filter((x) => x !== 'near_miss').sort())
})

test('the edge histories carry what the rules say', async () => {
  const runIds = [
    'run-operator-gap',
    'run-two-blocks',
    'run-usual-gap',
    'run-cleared-blob',
    'run-named-blob',
    'run-third-attempt',
    'run-tie',
    'run-operator-burst',
    'run-just-begun',
    'run-steady-running',
    'run-operator-only',
    'run-same-moment',
    'run-same-moment-under',
  ]
  const keys = runIds.map((run_id) => ({ org: 'edge', namespace: 'ns', agent: 'edge-agent', run_id }))
  const at = async (offset: number) => {
    const shown = await flagsOfRuns(keys, true, undefined, new Date(NOW.getTime() + offset))
    return Object.fromEntries(keys.map((k) => [k.run_id, shown.get(runKey(k))]))
  }
  assert.deepEqual(await at(10 * MIN), {
    // The 56 min before the operator's write are no agent's gap: the agent wrote 1 min after it.
    'run-operator-gap': ['stalled'],
    // The second block's 30-min gap is over max(8 × its 1-min median, 60 s); two sessions share the run_id.
    'run-two-blocks': ['resumed', 'near_miss'],
    'run-usual-gap': [],
    // A deleted checkpoint names no blob any more.
    'run-cleared-blob': ['stalled'],
    'run-named-blob': ['missing_blob', 'stalled'],
    'run-third-attempt': ['resumed', 'crash_loop'],
    'run-tie': ['tie'],
    'run-operator-burst': ['stalled'],
    // 15 min since its start, not more.
    'run-just-begun': [],
    // 12 min since its last write: under 10 × its 2-min median.
    'run-steady-running': [],
    // Operator writes only: stalled (running, long after its last write), never resumed.
    'run-operator-only': ['stalled'],
    // 61 s after writes at one moment; two sessions share the run_id.
    'run-same-moment': ['resumed', 'near_miss'],
    'run-same-moment-under': [],
  })
  const later = await at(21 * MIN)
  assert.deepEqual([later['run-steady-running'], later['run-just-begun']], [['stalled'], ['stalled']])
})

test('a run with over WRITES_DECIDED_IN_NODE checkpoint writes has its flags decided by the engine, with the same rules', async () => {
  const n = WRITES_DECIDED_IN_NODE + 50
  const start = NOW.getTime() - 2 * 86_400_000
  const rows = (runId: string, traceAt: (i: number) => string) =>
    Array.from({ length: n }, (_, i) => ({
      org: 'edge',
      namespace: 'ns',
      agent: 'edge-agent',
      user_id: 'u',
      session_id: 's',
      run_id: runId,
      block_key: 'checkpoint',
      content: `{"n": ${i}}`,
      char_limit: 4096,
      version: String(i + 1),
      is_deleted: 0,
      actor: 'agent',
      source_trace: traceAt(i),
      updated_at: toChTime(new Date(start + i * 1000)),
    }))
  // One insert each: the second run changes process half way (a resume); the first never does.
  await insertRows(
    tableNames().workingMemory,
    rows('run-long-steady', () => 'host-l/1'),
  )
  await insertRows(
    tableNames().workingMemory,
    rows('run-long-resumed', (i) => (i < n / 2 ? 'host-l/1' : 'host-l/2')),
  )
  const keys = ['run-long-steady', 'run-long-resumed', 'run-named-blob'].map((run_id) => ({
    org: 'edge',
    namespace: 'ns',
    agent: 'edge-agent',
    run_id,
  }))
  const { result, sent } = await statementsSent(() => flagsOfRuns(keys, true, undefined, NOW))
  assert.deepEqual(
    keys.map((k) => result.get(runKey(k))),
    [[], ['resumed'], ['missing_blob', 'stalled']],
  )
  // The long runs went to the engine's conditions, in one more statement; the short one did not.
  const decidedByEngine = sent.filter((q) => q.includes('AS f_resumed'))
  assert.equal(decidedByEngine.length, 1)
})
