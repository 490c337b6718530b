/** A run's blocks: a block's versions and resume story, operator writes, the replay preview, errors. */
import { z } from 'zod'
import { blockKeyFields, identityFields, iso, nullableIso, obj, version } from './parts'
import { attemptNote, resumePoint, segment } from './resume'

export const block = obj({
  ...blockKeyFields,
  version,
  content: z.string(),
  isDeleted: z.boolean(),
  charLimit: z.number(),
  chars: z.number(),
  actor: z.string(),
  sourceTrace: z.string(),
  updatedAt: iso,
})
export type Block = z.infer<typeof block>

/** A block as `GET R/blocks?content=none` lists it: every field but `content`. */
export const blockSummary = block.omit({ content: true })
export type BlockSummary = z.infer<typeof blockSummary>

/** `GET R/blocks` (with content=none every block comes without its content). */
export const blocksResponse = obj({ blocks: z.array(block) })
export type BlocksResponse = z.infer<typeof blocksResponse>
export const blockSummariesResponse = obj({ blocks: z.array(blockSummary) })
export type BlockSummariesResponse = z.infer<typeof blockSummariesResponse>
/** What the document promises for `GET R/blocks`: either form. */
export const blocksAnswer = z
  .union([blocksResponse, blockSummariesResponse])
  .describe('with content=none every block comes without its content')

export const errorBody = obj({
  error: obj({
    code: z
      .string()
      .describe(
        'invalid, unauthorized, forbidden, misdirected, rate_limited, not_found, conflict, run_active, too_large, unavailable, timeout',
      ),
    message: z.string(),
    field: z.string().optional().describe('the input field at fault (400)'),
  }),
})
export const conflictBody = errorBody.extend({
  current: block.nullable().optional().describe('a version conflict: the block now'),
})
export type ApiErrorBody = z.infer<typeof conflictBody>

export const versionRow = block.extend({ part: z.string(), isFinal: z.boolean() })
export type VersionRow = z.infer<typeof versionRow>

export const nearMiss = obj({
  ...identityFields,
  blockKey: z.string(),
  version,
  isDeleted: z.boolean(),
  updatedAt: iso,
})
export type NearMiss = z.infer<typeof nearMiss>

export const blobFlag = obj({
  blobKey: z.string(),
  state: z.enum(['live', 'expired', 'missing']),
  expiresAt: nullableIso,
})
export type BlobFlag = z.infer<typeof blobFlag>

export const blockDetail = obj({
  block: block.nullable(),
  versions: z.array(versionRow),
  history: z.array(block).nullable(),
  historyInstalled: z.boolean(),
  resume: obj({
    value: z.string().nullable(),
    fromVersion: version.nullable(),
    points: z.array(resumePoint),
    explanation: z.array(z.string()),
    attempts: z
      .array(attemptNote)
      .describe('every attempt (run.begin) of the run and what it wrote under this identity; [] for another identity'),
    attemptsText: z.string().nullable().describe('the same as one sentence, or null for fewer than two attempts'),
    segments: z.array(segment),
    mermaid: z.string(),
    source: z.enum(['history', 'physical']),
  }),
  flags: obj({
    ties: z.array(version),
    nearMisses: z.array(nearMiss),
    nearLimit: z.boolean(),
    blob: blobFlag.nullable(),
  }),
})
export type BlockDetail = z.infer<typeof blockDetail>

/** What an edit, clear or restore answers. */
export const writeResult = obj({
  block,
  confirmed: z.boolean().describe('false when, after the insert, FINAL returned another row (a tie or a newer write)'),
  warning: z.string().optional(),
  current: block.nullable().optional(),
  auditId: z.string(),
})
export type OperatorWriteResult = z.infer<typeof writeResult>

/** What a run wrote after the version a block goes back to (the replay preview's `after`). */
export const replayCounts = obj({
  checkpointWrites: z.number().describe('versions of this block'),
  turns: z.number(),
  memoryWrites: z.number().describe('rows of loom.memory'),
  searches: z.number(),
  blobs: z.number(),
})
export type ReplayCounts = z.infer<typeof replayCounts>

/** The units the agent will redo (the replay preview's `units`). */
export const replayUnits = obj({
  kind: z.enum(['list', 'json-array', 'none']),
  redo: z.number().nullable().describe('units the current checkpoint holds that the target lacks'),
  sample: z.array(z.string()).describe('up to 10 of them'),
})

export const replayPreview = obj({
  toVersion: version.nullable().describe('the version the block would go back to; null for a clear'),
  target: obj({ version, updatedAt: iso }).nullable(),
  current: obj({ version, updatedAt: iso }),
  since: iso.describe(
    "the target version's write time (a clear: the run's first write); `after` counts rows written strictly later",
  ),
  after: replayCounts,
  units: replayUnits,
  running: z.boolean(),
  notes: z.array(z.string()).describe('what the counts leave out, and what to beware of'),
})
export type ReplayPreview = z.infer<typeof replayPreview>
