/**
 * Demo data for the embedded engine: a simulated agent that follows Loom's checkpoint/resume
 * pattern (crashes, resumes, near misses, operator edits), writing only through lib/loom/*.
 * Deterministic for a seed and a `now`; timestamps spread over the ~7 days before `now`.
 */
import { getConfig } from '../config'
import { AppError } from '../errors'
import { createMissingSchema } from '../setup/init'
import { demoRuns, type DemoRuns } from './scenarios'
import { runAllStories, World } from './stories'

export type SeedOptions = {
  seed: number
  /** The demo's "now": every write is at or before it. Default: the current time. */
  now?: Date
}

export type DemoSummary = {
  seed: number
  now: string
  elapsedMs: number
  /** Runs with a `loom.runs` row (every run that called run.begin). */
  runs: number
  /** Runs that only have working-memory rows. */
  checkpointOnlyRuns: number
  runsByStatus: Record<string, number>
  runBegins: number
  runCompletes: number
  /** Rows inserted into `loom.working_memory` (sets, appends, tombstones, operator writes). */
  workingMemoryRows: number
  tombstones: number
  /** Sets refused by char_limit (nothing written). */
  refusedWrites: number
  conversations: number
  turns: number
  memoryWrites: number
  searches: number
  blobs: number
  auditRows: number
  /** Every run of the demo, by scenario. */
  scenarioRuns: DemoRuns
}

/** Seeds the embedded database. Never runs against a remote ClickHouse or in read-only mode. */
export async function seedDemo(opts: SeedOptions): Promise<DemoSummary> {
  const config = getConfig()
  if (config.mode !== 'embedded') {
    throw new AppError('forbidden', 'Demo data is only ever written into the embedded engine')
  }
  if (config.readOnly) throw new AppError('forbidden', 'Read-only mode: no demo data is written')
  if (!Number.isSafeInteger(opts.seed)) throw new AppError('invalid', `seed must be an integer, got ${opts.seed}`)
  const now = opts.now ?? new Date()
  if (Number.isNaN(now.getTime())) throw new AppError('invalid', 'now must be a valid date')

  const started = performance.now()
  await createMissingSchema({ history: true })
  const runs = demoRuns(opts.seed)
  const world = new World(opts.seed, now.getTime())
  await runAllStories(world, runs)

  const t = world.tally
  const runsByStatus: Record<string, number> = {}
  for (const status of t.runStatus.values()) runsByStatus[status] = (runsByStatus[status] ?? 0) + 1
  return {
    seed: opts.seed,
    now: now.toISOString(),
    elapsedMs: Math.round(performance.now() - started),
    runs: t.runStatus.size,
    checkpointOnlyRuns: t.checkpointOnlyRuns.size,
    runsByStatus,
    runBegins: t.runBegins,
    runCompletes: t.runCompletes,
    workingMemoryRows: t.workingMemoryRows,
    tombstones: t.tombstones,
    refusedWrites: t.refusedWrites,
    conversations: t.conversations,
    turns: t.turns,
    memoryWrites: t.memoryWrites,
    searches: t.searches,
    blobs: t.blobs,
    auditRows: t.auditRows,
    scenarioRuns: runs,
  }
}
