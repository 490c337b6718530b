/**
 * Active and idle time of a finished run, derived from what Loom records (no I/O here).
 *
 * Definitions:
 * - A run's wall-clock duration is started_at → completed_at (`duration_ms` when Loom recorded it).
 * - A run is *active* while one of its processes runs (a process segment) and *idle* between a
 *   crash and the next `run.begin`.
 * - A process that crashed is taken to have died right after its last working-memory write by
 *   the agent (operator writes do not count: a console edit made while the run sat dead is not
 *   the run working). So the idle gap before the latest begin is
 *   `last_begin_at − (the agent's latest write before last_begin_at)`.
 * - The run row keeps only the first and the latest begin; with attempt ≥ 3 the gaps before the
 *   earlier resumes are unknown and count as active, so active time is then an upper bound.
 * - When no write before the latest begin is stored (none made, or merged away without the
 *   history table), that gap is unknown: idle is null and active equals the duration.
 */

export type RunTimes = {
  startedAt: number
  lastBeginAt: number
  completedAt: number | null
  durationMs: number | null
  attempt: number
  /** The agent's latest working-memory write before lastBeginAt (ms), when one is stored. */
  lastWriteBeforeResume: number | null
}

export type ActiveTime = {
  /** Wall-clock duration, started → completed. */
  durationMs: number
  /** Time in process segments (an upper bound when idleKnown is 'partial'). */
  activeMs: number
  /** Time between a crash and the next begin; null when it cannot be told from the data. */
  idleMs: number | null
  /** 'all': every gap is known; 'partial': only the gap before the latest begin (attempt ≥ 3); 'none': unknown. */
  idleKnown: 'all' | 'partial' | 'none'
}

/** Active and idle time of a finished run; null when it has no duration. */
export function activeTime(r: RunTimes): ActiveTime | null {
  const durationMs = r.durationMs ?? (r.completedAt !== null ? r.completedAt - r.startedAt : null)
  if (durationMs === null || !Number.isFinite(durationMs) || durationMs < 0) return null
  if (r.attempt <= 1) return { durationMs, activeMs: durationMs, idleMs: 0, idleKnown: 'all' }
  const crash = r.lastWriteBeforeResume
  if (crash === null || crash < r.startedAt || crash > r.lastBeginAt) {
    return { durationMs, activeMs: durationMs, idleMs: null, idleKnown: 'none' }
  }
  const idleMs = Math.min(durationMs, r.lastBeginAt - crash)
  return { durationMs, activeMs: durationMs - idleMs, idleMs, idleKnown: r.attempt === 2 ? 'all' : 'partial' }
}
