/**
 * The closed sets of names the API sends (flag names, timeline kinds, resume reasons, segment
 * ends). They are part of the contract: add, never rename. The modules with the rules behind them
 * (lib/triage, lib/resume, the timeline query) re-export them from here.
 */

/** What can be unusual about a run, in the order lists show them. */
export const RUN_FLAGS = ['resumed', 'near_miss', 'near_limit', 'tie', 'missing_blob', 'crash_loop', 'stalled'] as const
export type RunFlag = (typeof RUN_FLAGS)[number]

export function isRunFlag(v: string): v is RunFlag {
  return (RUN_FLAGS as readonly string[]).includes(v)
}

/** A run's status, as the runs filter takes it. */
export const RUN_STATUSES = ['running', 'succeeded', 'failed', 'cancelled', 'unknown'] as const

/** Event kinds of the run timeline, in lane order (the order a run usually does things in). */
export const TIMELINE_KINDS = [
  'run.begin',
  'checkpoint',
  'checkpoint.cleared',
  'block',
  'operator',
  'turn',
  'memory.write',
  'search',
  'blob',
  'run.complete',
] as const
export type TimelineKind = (typeof TIMELINE_KINDS)[number]

/** Why a resume point is one, in the order they are listed within a point. */
export const RESUME_REASONS = [
  'run-begin',
  'new-process',
  'long-gap',
  'operator-edit',
  'operator-clear',
  'operator-restore',
] as const
export type ResumeReason = (typeof RESUME_REASONS)[number]

/**
 * How a segment ended, from the evidence:
 * - `completed`: it wrote last before run.complete (`endStatus` holds the run's status);
 * - `crashed`: a later process of this identity resumed after it;
 * - `abandoned`: the run went on under another identity (agent, user_id or session_id);
 * - `cleared`: its last row is its own tombstone;
 * - `stalled`: the run is still `running` and nothing was written for far longer than usual;
 * - `running`: the run is running and this segment wrote recently;
 * - `unknown`: nothing came after it and the run's status does not say why;
 * - `operator`: an operator wrote, then the same process went on (no resume point in between);
 * - operator segments end `operator` (edits/restores) or `cleared` (a clear last).
 */
export const SEGMENT_ENDS = [
  'completed',
  'crashed',
  'abandoned',
  'cleared',
  'stalled',
  'running',
  'unknown',
  'operator',
] as const
export type SegmentEnd = (typeof SEGMENT_ENDS)[number]

/** What an operator's single write does to a block (edit, clear, restore). */
export const OPERATOR_ACTIONS = ['edit', 'clear', 'restore'] as const
export type OperatorAction = (typeof OPERATOR_ACTIONS)[number]

/** Kinds of the console's own events (`GET /api/events`). */
export const EVENT_KINDS = ['write', 'batch', 'undo', 'setup'] as const
export type EventKind = (typeof EVENT_KINDS)[number]
