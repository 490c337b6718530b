/**
 * For `npm run dev`: keeps the demo's running run (RUNNING / DEMO_RUNS.running in scenarios.ts) going, so live
 * refresh can be seen. A new process resumes it (run.begin: attempt + 1), then checkpoints
 * every few seconds. Call it once the database is ready; a second call in the same process
 * returns the first one's stop function.
 */
import { getConfig } from '../config'
import { asAgentWrites } from '../derived/derive'
import { systemClock, type Clock, type WriterContext } from '../loom/identity'
import { runBegin, runLatestRow, runRecordUsage } from '../loom/runs'
import { wmGet, wmSet } from '../loom/working-memory'
import { demoRuns, DEMO_SEED, type DemoRun } from './scenarios'

export type LiveDemoOptions = {
  /** The seed the database was seeded with (default DEMO_SEED, as ensureReady uses). */
  seed?: number
  /** Milliseconds between checkpoints (default 4000). */
  intervalMs?: number
  /** Where progress and problems are reported (default console). */
  log?: (message: string) => void
  /** Clock for the writes (default: the system clock). */
  now?: Clock
}

export type StopLiveDemo = () => void

type LiveState = { stop: StopLiveDemo; run: DemoRun }
const g = globalThis as typeof globalThis & { __loomRunsLiveDemo?: LiveState }

/** The run the live demo keeps going, when it is active in this process. */
export function liveDemoRun(): DemoRun | null {
  return g.__loomRunsLiveDemo?.run ?? null
}

export function startLiveDemo(opts: LiveDemoOptions = {}): StopLiveDemo {
  const existing = g.__loomRunsLiveDemo
  if (existing) return existing.stop

  const log = opts.log ?? ((m: string) => console.log(`[loom-runs] ${m}`))
  const config = getConfig()
  if (config.mode !== 'embedded' || !config.demo || config.readOnly) {
    log('live demo not started: it only runs on the embedded demo database with writes enabled')
    return () => {}
  }

  const run = demoRuns(opts.seed ?? DEMO_SEED).running
  const now = opts.now ?? systemClock
  const ctx: WriterContext = { actor: run.agent, sourceTrace: `dev-server/pid-${process.pid}`, now }
  const block = { ...run, blockKey: 'checkpoint' }
  const ref = { org: run.org, namespace: run.namespace, agent: run.agent, runId: run.runId }

  let cursor: number | null = null
  let ticks = 0
  let busy = false
  let stopped = false
  let failures = 0

  /** Resumes the seeded run as a new process; false when the database holds no demo run. */
  const resume = async (): Promise<boolean> => {
    const existingRun = await runLatestRow(ref)
    // Never write into a database the demo did not seed (e.g. an embedded copy of real data).
    if (!existingRun) {
      log(`live demo not started: run ${run.runId} of the demo is not in this database`)
      return false
    }
    await runBegin({ ...run, goal: existingRun.goal, environment: 'dev-server' }, now)
    const saved = await wmGet(block)
    let state: { cursor?: unknown } = {}
    try {
      state = saved ? (JSON.parse(saved) as { cursor?: unknown }) : {}
    } catch {
      state = {}
    }
    cursor = typeof state.cursor === 'number' && Number.isFinite(state.cursor) ? state.cursor : 0
    log(`live demo: resumed ${run.agent}/${run.runId} at cursor ${cursor}`)
    return true
  }

  const tick = async () => {
    if (busy || stopped) return
    busy = true
    try {
      if (cursor === null && !(await resume())) {
        stop()
        return
      }
      if (stopped) return
      ticks++
      cursor = (cursor ?? 0) + 1 + (ticks % 3 === 0 ? 1 : 0)
      await wmSet(
        block,
        JSON.stringify({ cursor, last_url: `https://docs.example.com/page-${String(cursor).padStart(5, '0')}` }),
        ctx,
      )
      if (ticks % 5 === 0) {
        await runRecordUsage(ref, { turns: 5, inputTokens: 4500, outputTokens: 300, costUsd: 0.00085 })
      }
      failures = 0
    } catch (err) {
      failures++
      if (failures === 1 || failures % 20 === 0) {
        log(`live demo: write failed (${failures}x): ${err instanceof Error ? err.message : String(err)}`)
      }
    } finally {
      busy = false
    }
  }

  const timer = setInterval(() => void asAgentWrites(tick), Math.max(250, opts.intervalMs ?? 4000))
  timer.unref()

  const stop: StopLiveDemo = () => {
    if (stopped) return
    stopped = true
    clearInterval(timer)
    if (g.__loomRunsLiveDemo?.stop === stop) delete g.__loomRunsLiveDemo
  }
  g.__loomRunsLiveDemo = { stop, run }
  void tick()
  return stop
}
