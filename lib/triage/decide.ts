/**
 * Run flags decided from one run's merged triage columns (the run index's flags table, read by key
 * in lib/run-set/run-flags.ts): the same rules as the SQL conditions there, which a flag filter
 * over many runs uses. tests/run-flags-parity.test.ts holds the two to the same answers.
 * near_miss is not decided here: it compares a run with others.
 */
import { GAP_FACTOR, median, MIN_GAP_MS } from '../resume/rows'
import { CRASH_LOOP_ATTEMPTS, NEAR_LIMIT_RATIO, RUN_FLAGS, STALL_FACTOR, STALL_MIN_MS, type RunFlag } from './flags'

/** One checkpoint write as the triage table keeps it. */
export type CheckpointWrite = {
  /** Hash of (user_id, session_id): which block of the run. */
  identity: string
  atMs: number
  operator: boolean
  /** Hash of source_trace: which process wrote it. */
  trace: string
}

/** What the flags of one run are decided from. */
export type RunTriage = {
  /** The latest run row's status and attempt ('' and 0 for a run without one). */
  status: string
  attempt: number
  startedMs: number
  /** Every checkpoint write, sorted by identity, then version, then time. */
  writes: CheckpointWrite[]
  /** The latest checkpoint (chars 0 and char limit 0 when there is none). */
  checkpoint: { chars: number; charLimit: number; isDeleted: boolean; blobKey: string }
  /** Working-memory rows, and distinct (identity, block, version) keys among them. */
  rows: number
  keys: number
  lastWriteMs: number
  /** The checkpoint's blob_key has no blob row (only meaningful when it names one). */
  blobMissing: boolean
}

/** The writes of each block, in order: a new block starts where the identity changes. */
function blocksOf(writes: CheckpointWrite[]): CheckpointWrite[][] {
  const out: CheckpointWrite[][] = []
  for (const [i, w] of writes.entries()) {
    if (i === 0 || w.identity !== writes[i - 1].identity) out.push([])
    out[out.length - 1].push(w)
  }
  return out
}

/** Intervals between consecutive agent (non-operator) writes of one block, clamped at 0. */
function agentIntervals(block: CheckpointWrite[]): number[] {
  const times = block.filter((w) => !w.operator).map((w) => w.atMs)
  return times.slice(1).map((t, i) => Math.max(t - times[i], 0))
}

/** A process resume in one block: consecutive agent writes by different processes, or an agent write after a long gap. */
function blockResumed(block: CheckpointWrite[]): boolean {
  const agents = block.filter((w) => !w.operator)
  if (agents.some((w, i) => i > 0 && w.trace !== agents[i - 1].trace)) return true
  const threshold = Math.max(GAP_FACTOR * median(agentIntervals(block)), MIN_GAP_MS)
  const first = block.findIndex((w) => !w.operator)
  if (first < 0) return false
  return block.some((w, j) => j > first && !w.operator && w.atMs - block[j - 1].atMs > threshold)
}

/** One run, with its writes split into blocks once for every rule that needs them. */
type Judged = RunTriage & { blocks: CheckpointWrite[][] }

const DECIDE: Record<Exclude<RunFlag, 'near_miss'>, (t: Judged, nowMs: number) => boolean> = {
  resumed: (t) => t.attempt > 1 || t.blocks.some(blockResumed),
  near_limit: (t) =>
    !t.checkpoint.isDeleted &&
    t.checkpoint.charLimit > 0 &&
    t.checkpoint.chars >= NEAR_LIMIT_RATIO * t.checkpoint.charLimit,
  tie: (t) => t.rows > t.keys,
  missing_blob: (t) => !t.checkpoint.isDeleted && t.checkpoint.blobKey !== '' && t.blobMissing,
  crash_loop: (t) => t.attempt >= CRASH_LOOP_ATTEMPTS && t.status !== 'succeeded' && t.status !== '',
  stalled: (t, nowMs) =>
    t.status === 'running' &&
    nowMs - Math.max(t.lastWriteMs, t.startedMs) >
      Math.max(STALL_MIN_MS, STALL_FACTOR * median(t.blocks.flatMap(agentIntervals))),
}

/** The flags among `wanted` (near_miss aside) that one run carries at `nowMs`, in RUN_FLAGS order. */
export function decideFlags(t: RunTriage, nowMs: number, wanted: readonly RunFlag[]): RunFlag[] {
  const judged: Judged = { ...t, blocks: blocksOf(t.writes) }
  return RUN_FLAGS.filter(
    (f): f is Exclude<RunFlag, 'near_miss'> => f !== 'near_miss' && wanted.includes(f) && DECIDE[f](judged, nowMs),
  )
}
