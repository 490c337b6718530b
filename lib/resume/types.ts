/** The shapes resume detection works on and produces. Pure types and constants; no logic beyond that. */
import type { Identity } from '../endpoints/parts'
export type { Identity } from '../endpoints/parts'
export { RESUME_REASONS, type ResumeReason, type SegmentEnd } from '../endpoints/vocabulary'
export type { MissedCheckpoint, ResumePoint, OperatorStep, Segment } from '../endpoints/resume'

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

/** What the console's audit log says an operator write was (a restore is a plain set in working memory). */
export type OperatorAction = {
  version: string
  action: 'edit' | 'clear' | 'restore'
  /** A restore: the version it put back, as the audit recorded it (null or absent: found by content). */
  restoredVersion?: string | null
}

/** One row of the same run's block under another agent, user_id or session_id. */
export type ElsewhereRow = Identity & { version: string; updatedAt: string; isDeleted: boolean; content: string }

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
