/**
 * What can be unusual about a run (the `flags` of every RunSummary). The names are part of the
 * API contract: add more, rename none. Definitions live in the spec ("Triage") and, as rules, in
 * lib/triage/rules.ts; they are computed from the run index in lib/run-set/run-flags.ts (compiled to
 * SQL) and lib/triage/decide.ts (compiled to TypeScript, per run).
 */
import { RUN_FLAGS, type RunFlag } from '../endpoints/vocabulary'

export { RUN_FLAGS, type RunFlag }

export { isRunFlag } from '../endpoints/vocabulary'

/** A checkpoint at or above this share of its char_limit is near its limit (defined with the resume rules, which explain it too). */
export { NEAR_LIMIT_RATIO } from '../resume/rows'

/** A running run is stalled after max(STALL_MIN_MS, STALL_FACTOR × its median checkpoint interval) without a write. */
export const STALL_MIN_MS = 15 * 60_000
export const STALL_FACTOR = 10

/** A run on its third attempt (or later) that has not succeeded is in a crash loop. */
export const CRASH_LOOP_ATTEMPTS = 3

/** Short operator-facing label and one-line meaning of each flag. */
export const FLAG_TEXT: Record<RunFlag, { label: string; meaning: string }> = {
  resumed: { label: 'resumed', meaning: 'Started more than once, or its checkpoint history shows a resume point' },
  near_miss: {
    label: 'near miss',
    meaning: 'A checkpoint with this run_id exists under another agent, user_id or session_id',
  },
  near_limit: { label: 'near limit', meaning: 'Its current checkpoint is at 90% or more of char_limit' },
  tie: { label: 'tie', meaning: 'Two rows share a version for one of its blocks' },
  missing_blob: { label: 'missing blob', meaning: 'Its checkpoint names a blob_key that has no blob row' },
  crash_loop: { label: 'crash loop', meaning: 'Attempt 3 or later and not succeeded' },
  stalled: {
    label: 'stalled',
    meaning: 'Running, with no write for longer than max(15 min, 10 × its median checkpoint interval)',
  },
}
