/** Batch clear or restore across runs, kept batches and their undo (`/api/batches`). */
import { z } from 'zod'
import { iso, obj, runKey, runOwnerFields, version } from './parts'
import { replayCounts, replayUnits } from './blocks'

const BATCH_ACTIONS = ['clear', 'restore', 'skip'] as const
export const BATCH_OUTCOMES = ['done', 'conflict', 'skipped', 'error'] as const
export type BatchOutcome = (typeof BATCH_OUTCOMES)[number]

/** The row a batch write would replace (the block's latest now). */
export const batchCurrent = obj({
  version,
  actor: z.string().describe('who wrote it: `operator:<name>` for the console'),
  byOperator: z.boolean(),
  isDeleted: z.boolean().describe('a tombstone: the block was cleared'),
  updatedAt: z.string(),
})
export type BatchCurrent = z.infer<typeof batchCurrent>

/** One run's block in a batch, as the dry run reports it. */
export const batchItem = obj({
  ...runOwnerFields,
  blockKey: z.string(),
  fromVersion: version
    .nullable()
    .describe("the block's latest version at the preview (the write's expectedVersion); null without a block"),
  toVersion: version
    .nullable()
    .describe('restore: the version put back; null for clear and for skipped items without one'),
  action: z.enum(BATCH_ACTIONS),
  why: z
    .string()
    .optional()
    .describe(
      'why the item is skipped; `running` for a run still running with a checkpoint under 5 minutes old (send force: true to write it anyway)',
    ),
  status: z.string().describe("the run's status at the preview"),
  current: batchCurrent
    .nullable()
    .describe("the row the write would replace (the block's latest now); null without a block"),
  warnings: z
    .array(z.string())
    .describe(
      "what to know before writing it: `running`, `replaces an operator's write`, `replaces live version N: not a tombstone`",
    ),
  after: replayCounts
    .optional()
    .describe('dry run, items that write: what the run wrote after the version the block goes back to'),
  units: replayUnits.optional().describe('dry run, items that write: the units the agent will redo'),
})
export type BatchItem = z.infer<typeof batchItem>

export const batchPreview = obj({
  items: z.array(batchItem),
  total: z.number(),
  token: z.string().describe('proves this preview; send it back with dryRun: false'),
}).describe('dryRun: true')
export type BatchPreview = z.infer<typeof batchPreview>

export const batchResultItem = batchItem.extend({
  outcome: z.enum(BATCH_OUTCOMES),
  newVersion: version.optional().describe('outcome done: the version written'),
  currentVersion: version.nullable().optional().describe('outcome conflict: the latest version now'),
  message: z.string().optional().describe('why it was skipped, what failed, or a warning about a done write'),
})
export type BatchResultItem = z.infer<typeof batchResultItem>

export const batchResult = obj({
  batchId: z.string().describe('every audit row the batch wrote carries it'),
  items: z.array(batchResultItem),
  notMatched: z.number().describe('previewed runs the filter no longer matches (left alone)'),
  warning: z
    .string()
    .optional()
    .describe('the writes landed but the batch could not be kept (it cannot be undone from the console)'),
}).describe('dryRun: false')
export type BatchResult = z.infer<typeof batchResult>

/** `POST /api/batches`: the dry run or the writes. */
export const batchResponse = z.union([batchPreview, batchResult])

export const batchCounts = obj({ done: z.number(), conflict: z.number(), skipped: z.number(), error: z.number() })
export type BatchCounts = z.infer<typeof batchCounts>

/** What a kept batch was asked to do (the request as sent, without its token and reason). */
export const keptRequest = obj({
  filter: z.record(z.string(), z.unknown()),
  blockKey: z.string(),
  action: z.enum(['clear', 'restore']),
  before: z.string().optional(),
  runs: z.array(runKey).optional(),
  force: z.boolean().optional(),
})
export type KeptRequest = z.infer<typeof keptRequest>

/** A kept batch (or undo), without its items. */
export const batchRecord = obj({
  batchId: z.string(),
  at: iso,
  actor: z.string().describe('the operator who ran it'),
  action: z.enum(['clear', 'restore', 'undo']),
  blockKey: z.string(),
  filter: z.record(z.string(), z.unknown()).describe("the runs filter it was run with (an undo: its batch's)"),
  request: keptRequest.nullable().describe('the request as sent, without token and reason'),
  reason: z.string(),
  counts: batchCounts,
  undoneBy: z.string().nullable().describe('the latest undo that took this batch back'),
  undoes: z.string().nullable().describe('an undo: the batch it takes back'),
})
export type BatchRecord = z.infer<typeof batchRecord>

export const batchesResponse = obj({ batches: z.array(batchRecord).describe('newest first') })

/** One item as a kept batch remembers it: the versions it read and wrote, and a hash of what it wrote. */
export const keptItem = obj({
  ...runOwnerFields,
  blockKey: z.string(),
  action: z.enum(BATCH_ACTIONS),
  fromVersion: version.nullable().describe("the block's latest version before the batch"),
  fromDeleted: z.boolean().describe('that version was a tombstone'),
  toVersion: version.nullable().describe('restore: the version whose content was put back'),
  newVersion: version.nullable().describe('the version the batch wrote (outcome done)'),
  outcome: z.enum(BATCH_OUTCOMES),
  contentHash: z
    .string()
    .nullable()
    .describe('`sha256:<hex>` of the content written (a clear: of the empty string); null when nothing was written'),
  message: z.string().optional(),
})
export type KeptItem = z.infer<typeof keptItem>

export const batchDetail = batchRecord.extend({ items: z.array(keptItem) })
export type BatchDetail = z.infer<typeof batchDetail>

export const undoPreview = batchPreview
  .extend({ batch: batchRecord.describe('the batch the undo takes back') })
  .describe('dryRun: true')
export type UndoPreview = z.infer<typeof undoPreview>
export const undoResult = batchResult
  .extend({ undoes: z.string().describe('the batch taken back') })
  .describe('dryRun: false')
export type UndoResult = z.infer<typeof undoResult>

/** `POST /api/batches/{batchId}/undo` */
export const undoResponse = z.union([undoPreview, undoResult])
