import type { RunOwner } from '../api/types'

/** One run's block in a batch, as the dry run reports it (field names are part of the API contract). */
export type BatchItem = RunOwner & {
  blockKey: string
  /** The block's latest version now (the write's expectedVersion); null when the run has no such block. */
  fromVersion: string | null
  /** restore: the version put back; null for clear and for skipped items without one. */
  toVersion: string | null
  action: 'clear' | 'restore' | 'skip'
  why?: string
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
