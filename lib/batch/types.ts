import type { RunOwner } from '../api/types'
import type { ReplayCounts } from '../queries/replay'

/** One run's block in a batch, as the dry run reports it (field names are part of the API contract). */
export type BatchItem = RunOwner & {
  blockKey: string
  /** The block's latest version now (the write's expectedVersion); null when the run has no such block. */
  fromVersion: string | null
  /** restore: the version put back; null for clear and for skipped items without one. */
  toVersion: string | null
  action: 'clear' | 'restore' | 'skip'
  /** Why the item is skipped: `running` for a run still writing its checkpoint (unless the request forces). */
  why?: string
  /** The run's status at the preview. */
  status: string
  /** The row the write would replace (the block's latest now); null without a block. */
  current: BatchCurrent | null
  /** What the operator should know before writing this item, e.g. `running`, `replaces an operator's write`. */
  warnings: string[]
  /** Dry run, items that write: what the run wrote after the version the block goes back to (see the replay preview). */
  after?: ReplayCounts
  /** Dry run, items that write: the units the agent will redo. */
  units?: { kind: 'list' | 'json-array' | 'none'; redo: number | null; sample: string[] }
}

export type BatchCurrent = {
  version: string
  /** Who wrote it (`operator:<name>` for the console's writes). */
  actor: string
  byOperator: boolean
  /** It is a tombstone (the block was cleared). */
  isDeleted: boolean
  updatedAt: string
}

export type BatchPreview = { items: BatchItem[]; total: number; token: string }

export type BatchOutcome = 'done' | 'conflict' | 'skipped' | 'error'

export type BatchResultItem = BatchItem & {
  outcome: BatchOutcome
  /** The version the write inserted (outcome done). */
  newVersion?: string
  /** The block's latest version when it moved since the preview (outcome conflict). */
  currentVersion?: string | null
  /** Why it was skipped, what failed, or a warning about a done write. */
  message?: string
}

export type BatchResult = {
  batchId: string
  items: BatchResultItem[]
  /** Previewed runs the filter no longer matches: left alone. */
  notMatched: number
  /** Set when the writes landed but the batch could not be kept (it cannot be undone from the console). */
  warning?: string
}

/** One item as a kept batch remembers it: the versions it read and wrote, and a hash of what it wrote. */
export type KeptItem = {
  org: string
  namespace: string
  agent: string
  runId: string
  userId: string
  sessionId: string
  blockKey: string
  action: 'clear' | 'restore' | 'skip'
  /** The block's latest version before the batch (the write's expectedVersion). */
  fromVersion: string | null
  /** That version was a tombstone: the block was cleared before the batch. */
  fromDeleted: boolean
  /** restore: the version whose content was put back. */
  toVersion: string | null
  /** The version the batch inserted (outcome done). */
  newVersion: string | null
  outcome: BatchOutcome
  /** `sha256:<hex>` of the content the batch wrote ('' for a clear); null when nothing was written. */
  contentHash: string | null
  message?: string
}

export type BatchCounts = Record<BatchOutcome, number>

/** What a kept batch was asked to do (the request as sent, without its token and reason). */
export type KeptRequest = {
  filter: Record<string, unknown>
  blockKey: string
  action: 'clear' | 'restore'
  before?: string
  runs?: { org: string; namespace: string; agent: string; runId: string }[]
  force?: boolean
}

export type BatchRecord = {
  batchId: string
  at: string
  actor: string
  /** `clear` or `restore`; `undo` for the undo of another batch. */
  action: 'clear' | 'restore' | 'undo'
  blockKey: string
  filter: Record<string, unknown>
  request: KeptRequest | null
  reason: string
  counts: BatchCounts
  /** The later batch that took this one back, if any. */
  undoneBy: string | null
  /** The batch this one takes back (an undo). */
  undoes: string | null
}

export type BatchDetail = BatchRecord & { items: KeptItem[] }

/** The dry run of an undo: the batch it takes back, each item, and the token that proves the preview. */
export type UndoPreview = { batch: BatchRecord; items: BatchItem[]; total: number; token: string }
export type UndoResult = { batchId: string; undoes: string; items: BatchResultItem[]; notMatched: number; warning?: string }
