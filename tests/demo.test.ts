import assert from 'node:assert/strict'
import { spawn } from 'node:child_process'
import path from 'node:path'
import { before, describe, test } from 'node:test'
import { z } from 'zod'
import { queryRows } from '../lib/clickhouse/query'
import { liveDemoRun, startLiveDemo } from '../lib/demo/live'
import * as sc from '../lib/demo/scenarios'
import type { DemoSummary } from '../lib/demo/seed'
import * as runsMod from '../lib/loom/runs'
import { tableNames } from '../lib/loom/tables'
import * as wm from '../lib/loom/working-memory'
import { digestDemoTables } from './helpers/demo-digest'
import { useFreshEngine } from './helpers/engine'
import { checkpointOf, DAY, ms, NOW, SEED, seededDemo } from './helpers/seeded-demo'
import { SERVER_NODE_ARGS } from '../scripts/server-node'

// LOOM_RUNS_DEMO=1 so that the live demo (embedded demo only) can be exercised at the end.
useFreshEngine('demo', { LOOM_RUNS_DEMO: '1' })

let summary: DemoSummary
let t: ReturnType<typeof tableNames>
let secondSeeding: Promise<string>

/** Seeds a second, independent engine in a child process with the same seed and now. */
function seedInChild(): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [...SERVER_NODE_ARGS, path.join(__dirname, 'helpers', 'demo-digest-cli.ts'), String(SEED), NOW.toISOString()],
      { cwd: path.join(__dirname, '..'), stdio: ['ignore', 'pipe', 'pipe'] },
    )
    let out = ''
    let err = ''
    child.stdout.on('data', (d) => (out += d))
    child.stderr.on('data', (d) => (err += d))
    child.on('error', reject)
    child.on('exit', (code) => {
      if (code === 0) resolve(out.trim().split('\n').pop() ?? '')
      else reject(new Error(`second seeding exited with ${code}: ${err}`))
    })
  })
}

before(async () => {
  secondSeeding = seedInChild()
  secondSeeding.catch(() => undefined)
  summary = await seededDemo()
  t = tableNames()
})

describe('scenario plan', () => {
  test('run ids come from the seed alone', () => {
    assert.deepEqual(sc.demoRuns(SEED), sc.DEMO_RUNS)
    assert.notEqual(sc.demoRuns(7).batch.runId, sc.DEMO_RUNS.batch.runId)
    // Pinned: e2e fixtures and docs refer to these.
    assert.equal(sc.DEMO_RUNS.batch.runId, 'run-afe0ab20c7')
    assert.equal(sc.DEMO_RUNS.running.runId, 'run-2bfe097a3d')
    assert.equal(sc.DEMO_RUNS.edgeCase.runId, 'run/with%odd "chars" ü')
    const all = sc.allDemoRuns(sc.DEMO_RUNS)
    assert.equal(new Set(all.map((r) => JSON.stringify([r.org, r.namespace, r.agent, r.runId]))).size, all.length)
    assert.equal(sc.DEMO_RUNS.filler.length, 40)
    assert.equal(sc.DEMO_RUNS.checkpointOnly.length, 3)
  })
})

describe('seeded demo', () => {
  test('the runs table holds exactly the planned run ids (determinism)', async (ctx) => {
    ctx.diagnostic(`seedDemo took ${summary.elapsedMs} ms (a second seeding ran concurrently in a child process)`)
    const ids = await queryRows(
      `SELECT DISTINCT run_id FROM ${t.runs} ORDER BY run_id`,
      {},
      z.object({ run_id: z.string() }),
    )
    assert.deepEqual(
      ids.map((r) => r.run_id),
      sc.runsTableRunIds(sc.DEMO_RUNS),
    )
    assert.equal(ids.length, 53)
    assert.equal(summary.runs, 53)
    assert.equal(summary.checkpointOnlyRuns, 3)
  })

  test('a second seeding with the same seed and now writes identical tables', async () => {
    const mine = await digestDemoTables()
    const theirs = JSON.parse(await secondSeeding) as typeof mine
    assert.deepEqual(theirs, mine)
    assert.equal(mine.history.rows, summary.workingMemoryRows)
    assert.equal(mine.runs.rows, 53)
    assert.equal(mine.audit.rows, 2)
    assert.equal(mine.memory.rows, 6)
  })

  test('the summary matches what is in the tables', async () => {
    const [counts] = await queryRows(
      `SELECT
         (SELECT count() FROM ${t.history}) AS wm,
         (SELECT countIf(is_deleted = 1) FROM ${t.history}) AS tombstones,
         (SELECT count() FROM ${t.audit}) AS audit,
         (SELECT count() FROM ${t.turns}) AS turns,
         (SELECT count() FROM ${t.searchTrace}) AS searches`,
      {},
      z.object({
        wm: z.coerce.number(),
        tombstones: z.coerce.number(),
        audit: z.coerce.number(),
        turns: z.coerce.number(),
        searches: z.coerce.number(),
      }),
    )
    assert.equal(counts.wm, summary.workingMemoryRows)
    assert.equal(counts.tombstones, summary.tombstones)
    assert.equal(counts.audit, 2)
    assert.equal(summary.auditRows, 2)
    assert.equal(counts.turns, summary.turns)
    assert.equal(counts.searches, summary.searches)
    assert.equal(summary.refusedWrites, 1)
    assert.equal(summary.seed, SEED)
    assert.equal(summary.now, NOW.toISOString())
  })

  test('every timestamp lies in the 7 days before now', async () => {
    const [span] = await queryRows(
      `SELECT
         (SELECT toString(min(updated_at)) FROM ${t.history}) AS wm_min,
         (SELECT toString(max(updated_at)) FROM ${t.history}) AS wm_max,
         (SELECT toString(min(started_at)) FROM ${t.runs}) AS run_min,
         (SELECT toString(max(greatest(last_begin_at, ifNull(completed_at, last_begin_at)))) FROM ${t.runs}) AS run_max,
         (SELECT toString(max(created_at)) FROM ${t.turns}) AS turn_max,
         (SELECT toString(max(event_time)) FROM ${t.searchTrace}) AS search_max`,
      {},
      z.object({
        wm_min: z.string(),
        wm_max: z.string(),
        run_min: z.string(),
        run_max: z.string(),
        turn_max: z.string(),
        search_max: z.string(),
      }),
    )
    const lo = NOW.getTime() - 7 * DAY
    for (const v of [span.wm_min, span.run_min]) assert.ok(ms(v) >= lo, `${v} is more than 7 days before now`)
    for (const v of [span.wm_max, span.run_max, span.turn_max, span.search_max])
      assert.ok(ms(v) <= NOW.getTime(), `${v} is after now`)
    // Spread over the week, not bunched up.
    assert.ok(ms(span.wm_min) < NOW.getTime() - 6 * DAY)
  })

  test('the live demo resumes the running run as a new process and keeps checkpointing', async () => {
    const run = sc.DEMO_RUNS.running
    const ref = checkpointOf(run)
    const before = await wm.wmLatestRow(ref)
    const beginBefore = await runsMod.runLatestRow(run)
    const logs: string[] = []
    const stop = startLiveDemo({ seed: SEED, intervalMs: 250, log: (m) => logs.push(m) })
    assert.equal(startLiveDemo({ seed: SEED }), stop, 'a second call returns the running demo')
    assert.equal(liveDemoRun()?.runId, run.runId)
    try {
      const deadline = Date.now() + 15_000
      let latest = before
      while (Date.now() < deadline) {
        latest = await wm.wmLatestRow(ref)
        if (latest && BigInt(latest.version) >= BigInt(before!.version) + 3n) break
        await new Promise((r) => setTimeout(r, 100))
      }
      assert.ok(
        latest && BigInt(latest.version) >= BigInt(before!.version) + 3n,
        `no live checkpoints: ${logs.join('; ')}`,
      )
      assert.equal(latest.source_trace, `dev-server/pid-${process.pid}`)
      const prev = JSON.parse(before!.content) as { cursor: number }
      assert.ok((JSON.parse(latest.content) as { cursor: number }).cursor > prev.cursor)
    } finally {
      stop()
    }
    assert.equal(liveDemoRun(), null)
    const row = await runsMod.runLatestRow(run)
    assert.equal(row?.status, 'running')
    assert.equal(row?.attempt, beginBefore!.attempt + 1)
    // After stop, nothing more is written.
    const stopped = await wm.wmLatestRow(ref)
    await new Promise((r) => setTimeout(r, 700))
    assert.equal((await wm.wmLatestRow(ref))?.version, stopped?.version)
  })
})
