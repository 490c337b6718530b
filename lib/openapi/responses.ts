/**
 * Response bodies of the HTTP API as zod schemas, for the OpenAPI document only: they mirror the
 * TypeScript types in lib/api/types.ts and the query modules (same field names; nothing is
 * renamed here). This module holds errors, runs, blocks and writes; the story views and the
 * console's other views have their own.
 */
import { z } from 'zod'
import { identity, iso, nullableIso, obj, runIdentity, version } from './schema-parts'

export const errorBody = obj({
  error: obj({
    code: z.string().describe('invalid, unauthorized, forbidden, misdirected, rate_limited, not_found, conflict, run_active, too_large, unavailable, timeout'),
    message: z.string(),
    field: z.string().optional().describe('the input field at fault (400)'),
  }),
})

export const block = obj({
  userId: z.string(),
  sessionId: z.string(),
  blockKey: z.string(),
  version,
  content: z.string(),
  isDeleted: z.boolean(),
  charLimit: z.number(),
  chars: z.number(),
  actor: z.string(),
  sourceTrace: z.string(),
  updatedAt: iso,
})

export const conflictBody = errorBody.extend({ current: block.nullable().optional() })


const checkpointSummary = obj({
  version,
  updatedAt: iso,
  chars: z.number(),
  charLimit: z.number(),
  isDeleted: z.boolean(),
  userId: z.string(),
  sessionId: z.string(),
})

export const runSummary = obj({
  ...runIdentity,
  goal: z.string(),
  status: z.string().describe('running, succeeded, failed, cancelled or unknown (checkpoint-only run)'),
  attempt: z.number(),
  startedAt: iso,
  completedAt: nullableIso,
  durationMs: z.number().nullable(),
  turns: z.number(),
  costUsd: z.number(),
  checkpoint: checkpointSummary.nullable(),
})

export const runsPage = obj({
  runs: z.array(runSummary),
  nextCursor: z.string().nullable(),
  searchedTo: iso
    .optional()
    .describe('Only on a flag-filtered page that stopped looking before it was full: runs started before this were not checked yet; nextCursor goes on from there'),
})

export const runDetail = obj({
  run: runSummary.extend({ reflection: z.string(), outcome: z.string(), lastBeginAt: nullableIso, hasRunRow: z.boolean() }),
  memoriesUsed: z.array(z.string()),
  recalledKeys: z.array(z.string()),
  inputTokens: z.number(),
  outputTokens: z.number(),
  model: z.string(),
  counts: obj({ blocks: z.number(), versions: z.number(), turns: z.number(), memories: z.number(), searches: z.number(), blobs: z.number() }),
})

export const blocksResponse = obj({
  blocks: z.array(block.partial({ content: true })).describe('with content=none every block comes without its content'),
})

const resumeReason = z.enum(['run-begin', 'new-process', 'long-gap', 'operator-edit', 'operator-clear', 'operator-restore'])

export const resumePoint = obj({
  at: iso,
  reasons: z.array(resumeReason),
  fromVersion: version.nullable(),
  fromTrace: z.string().nullable(),
  toTrace: z.string().nullable(),
  unitsDone: z.number().nullable(),
  firstWrite: obj({ version, at: iso, summary: z.string() }).nullable(),
  previous: obj({ version, isDeleted: z.boolean() }).nullable(),
  gapMs: z.number().nullable(),
  gapFrom: obj({ version, actor: z.string(), at: iso }).nullable(),
  attempt: z.number().nullable(),
  actor: z.string().nullable(),
  historyGap: z.boolean(),
  restoredFrom: version.nullable(),
  missed: obj({ ...identity, version, updatedAt: iso, unitsDone: z.number().nullable(), unitsRedone: z.number().nullable(), under: z.string() }).nullable(),
})

const segment = obj({
  id: z.string(),
  kind: z.enum(['process', 'operator']),
  sourceTrace: z.string().nullable(),
  actor: z.string().nullable(),
  fromVersion: version.nullable(),
  toVersion: version.nullable(),
  startAt: iso,
  endAt: iso,
  writes: z.number(),
  endedBy: z.enum(['completed', 'crashed', 'abandoned', 'cleared', 'stalled', 'running', 'unknown', 'operator']),
  endStatus: z.string().nullable(),
  continuedUnder: obj(identity).nullable(),
  endsWithTombstone: z.boolean(),
  unitsDone: z.number().nullable(),
  startReasons: z.array(resumeReason),
  startPoint: z.number().nullable(),
  steps: z.array(obj({ kind: z.enum(['edit', 'clear', 'restore']), version, actor: z.string(), at: iso, restoredFrom: version.nullable() })),
})

export const attemptNote = obj({
  attempt: z.number(),
  beganAt: nullableIso,
  wrote: obj({ from: version, to: version, writes: z.number() }).nullable(),
  elsewhere: obj({ ...identity, from: version, to: version }).nullable(),
  unattributed: obj({ processes: z.number(), from: z.string(), to: z.string() }).nullable(),
})

const nearMiss = obj({ ...identity, blockKey: z.string(), version, isDeleted: z.boolean(), updatedAt: iso })

export const blockDetail = obj({
  block: block.nullable(),
  versions: z.array(block.extend({ part: z.string(), isFinal: z.boolean() })),
  history: z.array(block).nullable(),
  historyInstalled: z.boolean(),
  resume: obj({
    value: z.string().nullable(),
    fromVersion: version.nullable(),
    points: z.array(resumePoint),
    explanation: z.array(z.string()),
    attempts: z.array(attemptNote),
    attemptsText: z.string().nullable(),
    segments: z.array(segment),
    mermaid: z.string(),
    source: z.enum(['history', 'physical']),
  }),
  flags: obj({
    ties: z.array(version),
    nearMisses: z.array(nearMiss),
    nearLimit: z.boolean(),
    blob: obj({ blobKey: z.string(), state: z.enum(['live', 'expired', 'missing']), expiresAt: nullableIso }).nullable(),
  }),
})

export const writeResult = obj({
  block,
  confirmed: z.boolean().describe('false when, after the insert, FINAL returned another row (a tie or a newer write)'),
  warning: z.string().optional(),
  current: block.nullable().optional(),
  auditId: z.string(),
})
