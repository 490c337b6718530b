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
}
