/** The shapes resume detection works on and produces. Pure types and constants; no logic beyond that. */

/** One physical row of the block, as read without FINAL (or from the history table). */
export type VersionInput = {
  /** UInt64 as a decimal string. */
  version: string
  /** ISO 8601 UTC. */
  updatedAt: string
  actor: string
  sourceTrace: string
  content: string
  isDeleted: boolean
}

export type RunBegin = { attempt: number; at: string }

/** What the run row tells about its begins, when the individual begins are not known. */
export type RunBeginsSummary = { attempts: number; startedAt?: string | null; lastBeginAt?: string | null }

export type RunBeginInput = RunBegin[] | RunBeginsSummary

export type ResumeReason = 'run-begin' | 'new-process' | 'long-gap' | 'operator-edit' | 'operator-clear' | 'operator-restore'

/** The order reasons are listed in within a point. */
export const RESUME_REASONS: readonly ResumeReason[] = ['run-begin', 'new-process', 'long-gap', 'operator-edit', 'operator-clear', 'operator-restore']

/** What the console's audit log says an operator write was (a restore is a plain set in working memory). */
export type OperatorAction = {
  version: string
  action: 'edit' | 'clear' | 'restore'
  /** A restore: the version it put back, as the audit recorded it (null or absent: found by content). */
  restoredVersion?: string | null
}

/** Where a run's identity is: the parts of a block's address that a resume must match. */
export type Identity = { agent: string; userId: string; sessionId: string }

/** One row of the same run's block under another agent, user_id or session_id. */
export type ElsewhereRow = Identity & { version: string; updatedAt: string; isDeleted: boolean; content: string }

/** A newer checkpoint the resume could not see, because it sat under another identity. */
export type MissedCheckpoint = Identity & {
  version: string
  updatedAt: string
  /** Units done in that version (null when its content does not count units). */
  unitsDone: number | null
  /** Units this identity did again after the resume that the missed version already had (null when unknown). */
  unitsRedone: number | null
  /** Where it sat, as the parts that differ from the resuming identity: "session s1". */
  under: string
}

export type ResumePoint = {
  /** When it happened: the run.begin time when one was matched, else the time of the first write after it. */
  at: string
  reasons: ResumeReason[]
  /** The version a resume at that moment read: the latest version before the point; null if none or a tombstone. */
  fromVersion: string | null
  /** The source_trace of the last non-operator write before the point. */
  fromTrace: string | null
  /** The source_trace of the first write after the point (null when nothing was written yet). */
  toTrace: string | null
  /** Units done in fromVersion's content (see `unitsDone` in lib/diff). */
  unitsDone: number | null
  /** The first write after the point and what it changed relative to fromVersion. */
  firstWrite: { version: string; at: string; summary: string } | null
  /** The row just before the point, even a tombstone (null when none). */
  previous: { version: string; isDeleted: boolean } | null
  /** Milliseconds between the write just before the first write (anyone's) and the first write. */
  gapMs: number | null
  /** That last write before the gap: its version and who wrote it (an agent or `operator:<name>`). */
  gapFrom: { version: string; actor: string; at: string } | null
  /** The highest run.begin attempt matched to this point. */
  attempt: number | null
  /** Who made the first write (the operator, for operator points). */
  actor: string | null
  /** Version numbers are missing just before the first write (merged away), so the real resume may have read a later version. */
  historyGap: boolean
  /** For a restore: the version whose content was put back (null when not a restore or not found). */
  restoredFrom: string | null
  /** A newer checkpoint of the same run under another identity at the time of a process resume (a near miss in the past). */
  missed: MissedCheckpoint | null
}

export type DetectOptions = {
  begins?: RunBeginInput | null
  /** A gap counts as long when over median checkpoint interval × gapFactor (default 8)… */
  gapFactor?: number
  /** …and over minGapMs (default 60 000). */
  minGapMs?: number
  /** The audit log's actions on this block, to tell a restore from an edit. */
  operatorActions?: readonly OperatorAction[]
  /**
   * A summary of the step from one live content to the next, when the caller has one (the server
   * diffs large pairs off the event loop first); undefined falls back to the diff computed here.
   */
  summarize?: (fromContent: string, toContent: string) => string | undefined
}

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
export type SegmentEnd = 'completed' | 'crashed' | 'abandoned' | 'cleared' | 'stalled' | 'running' | 'unknown' | 'operator'

export type OperatorStep = { kind: 'edit' | 'clear' | 'restore'; version: string; actor: string; at: string; restoredFrom: string | null }

export type Segment = {
  /** `s1`, `s2`, … in order. */
  id: string
  /** `operator`: one or more consecutive dashboard writes (edit, clear, restore), folded. */
  kind: 'process' | 'operator'
  /** Null for a resumed process that has not written yet. */
  sourceTrace: string | null
  actor: string | null
  fromVersion: string | null
  toVersion: string | null
  startAt: string
  endAt: string
  /** Rows in the segment. */
  writes: number
  endedBy: SegmentEnd
  /** For a segment that `completed`: the run's final status (succeeded, failed, cancelled). */
  endStatus: string | null
  /** For `abandoned`: the identity the run went on under. */
  continuedUnder: Identity | null
  /** The segment's last row is a tombstone. */
  endsWithTombstone: boolean
  /** Units done at the segment's last (non-tombstone) row. */
  unitsDone: number | null
  /** Reasons of the point the segment starts at ([] for the first segment or a plain continuation). */
  startReasons: ResumeReason[]
  /** Index into `points` of that point, or null. */
  startPoint: number | null
  /** Operator segments: each action, in order. */
  steps: OperatorStep[]
}

export type SegmentOptions = {
  /** The run's status (`running`, `succeeded`, `failed`, `cancelled`); unknown when absent. */
  runStatus?: string | null
  /** When run.complete was recorded; with it, only the segment that wrote last before it carries the status. */
  completedAt?: string | null
  /** Now (ms); with it a silent last segment of a running run is `stalled` after a long gap. */
  now?: number
  gapFactor?: number
  minGapMs?: number
  /** This block's identity and the same run's rows under other identities (to tell `abandoned`). */
  identity?: Identity
  elsewhere?: readonly ElsewhereRow[]
}
