/** A run's story: timeline, conversations, memories, searches, blobs, operator actions, the export. */
import { z } from 'zod'
import { blockKeyFields, iso, listCuts, obj, runOwnerFields, sessionFields, tokenFields, version } from './parts'
import { attemptNote, resumePoint } from './resume'
import { TIMELINE_KINDS } from './vocabulary'
import { block, blockDetail } from './blocks'
import { runDetail } from './runs'

export const timelineEvent = obj({
  id: z.string(),
  at: iso,
  kind: z.enum(TIMELINE_KINDS),
  label: z.string(),
  version: version.nullable(),
  blockKey: z.string().nullable(),
  ...sessionFields,
  actor: z.string(),
  detail: z.string().describe('the payload, cut to a number of characters that depends on the kind'),
  ref: z.string().describe('points into another tab: a memory key, search id, blob key, conversation id'),
})
export type TimelineEvent = z.infer<typeof timelineEvent>

export const timeline = obj({
  events: z.array(timelineEvent),
  resumes: z
    .array(resumePoint)
    .describe("resume points of the run's checkpoint; `missed` names a newer checkpoint the resume could not see"),
  attempts: z.array(attemptNote).describe('every attempt and what it wrote ([] for a run without a run row)'),
  attemptsText: z.string().nullable().describe('the attempts as one sentence (null for fewer than two)'),
  total: z.number(),
  truncated: z.boolean(),
  limit: z.number(),
})
export type Timeline = z.infer<typeof timeline>

export const turn = obj({
  turnIndex: z.number(),
  role: z.string(),
  content: z.string(),
  toolName: z.string(),
  ...tokenFields,
  costUsd: z.number(),
  createdAt: iso,
})
export type Turn = z.infer<typeof turn>

export const conversation = obj({
  conversationId: z.string(),
  title: z.string(),
  createdAt: iso,
  ...sessionFields,
  turns: z.array(turn),
})
export type Conversation = z.infer<typeof conversation>
export const conversationsResponse = obj({ conversations: z.array(conversation), cuts: listCuts })
export type ConversationsResponse = z.infer<typeof conversationsResponse>

export const writtenMemory = obj({
  memoryKey: z.string(),
  version,
  value: z.string(),
  status: z.string(),
  confidence: z.number(),
  memoryType: z.string(),
  ...sessionFields,
  updatedAt: iso,
  versionCount: z
    .number()
    .describe(
      'rows of this run still stored for the key (versions not merged away yet); not the number of versions ever written',
    ),
  versionsStored: z
    .array(version)
    .describe(
      'the version numbers of those rows, ascending (at most 50); the latest version number counts every write to the key, by any run',
    ),
})
export type WrittenMemory = z.infer<typeof writtenMemory>

export const usedMemory = obj({
  memoryKey: z.string(),
  recalled: z.boolean(),
  used: z.boolean(),
  writtenBy: obj({ agent: z.string(), runId: z.string(), version, value: z.string(), status: z.string() })
    .nullable()
    .describe('the run that wrote the latest version of this memory in the namespace, when known'),
})
export type UsedMemory = z.infer<typeof usedMemory>

export const memoriesResponse = obj({
  cuts: listCuts,
  written: z.array(writtenMemory),
  used: z.array(z.string()).describe('memory keys the run listed in memories_used'),
  recalled: z.array(z.string()).describe('memory keys the run recalled'),
  relied: z.array(usedMemory),
})
export type MemoriesResponse = z.infer<typeof memoriesResponse>

export const memoryWrite = obj({ agent: z.string(), runId: z.string(), version, at: iso })
export type MemoryWrite = z.infer<typeof memoryWrite>

export const searchHit = obj({
  memoryKey: z.string(),
  score: z.number(),
  rank: z.number(),
  usedByRun: z.boolean().describe('the run listed this memory in memories_used at run.complete'),
  writtenBy: memoryWrite
    .nullable()
    .describe(
      'who had written the memory when the search ran: its latest stored version written at or before the search',
    ),
  writtenAfter: memoryWrite
    .nullable()
    .describe('the newest stored version written after the search (the search could not have returned it), if any'),
  searchedVersionGone: z
    .boolean()
    .describe(
      'no stored version is as old as the search: the version it returned was merged away (or written without a run)',
    ),
})
export type SearchHit = z.infer<typeof searchHit>

export const loggedSearch = obj({
  searchId: z.string(),
  at: iso,
  query: z.string(),
  mode: z.string(),
  filters: z.string(),
  topK: z.number(),
  latencyMs: z.number(),
  ...sessionFields,
  hits: z.array(searchHit),
})
export type LoggedSearch = z.infer<typeof loggedSearch>

export const searchesResponse = obj({
  searches: z.array(loggedSearch),
  traceLog: z.enum(['missing', 'on', 'empty']),
  cuts: listCuts,
})
export type SearchesResponse = z.infer<typeof searchesResponse>

/** A block version that names a blob in its content. */
export const blobReference = obj({ version, ...blockKeyFields })
export type BlobReference = z.infer<typeof blobReference>

export const runBlob = obj({
  blobKey: z.string(),
  summary: z.string(),
  sizeBytes: z.number(),
  createdAt: iso,
  expiresAt: iso,
  expired: z.boolean(),
  referencedBy: z.array(blobReference).describe('checkpoint versions whose content names this blob_key'),
})
export type RunBlob = z.infer<typeof runBlob>

export const blobsResponse = obj({
  blobs: z.array(runBlob),
  missing: z
    .array(obj({ blobKey: z.string(), referencedBy: z.array(blobReference) }))
    .describe('blob keys that checkpoints name but no blob row holds'),
  cuts: listCuts,
})
export type BlobsResponse = z.infer<typeof blobsResponse>

/** What an operator write's audit row says, in a run's Audit tab and on the console's audit page. */
const auditWriteFields = {
  at: iso,
  operator: z.string(),
  action: z.string(),
  reason: z.string(),
  blockKey: z.string(),
}
const auditVersionFields = { beforeVersion: z.string(), afterVersion: z.string() }
const auditUndoes = z.string().nullable().describe('the write belonged to an undo: the batch it took back')

export const auditEntry = obj({
  ...auditWriteFields,
  ...sessionFields,
  ...auditVersionFields,
  beforeContent: z.string(),
  afterContent: z.string(),
  batchId: z
    .string()
    .nullable()
    .describe('the batch (POST /api/batches) the write belonged to; null for a single write'),
  restoredVersion: version
    .nullable()
    .describe(
      'a restore: the version whose content it put back as afterVersion (null otherwise, or for a restore recorded before the column existed)',
    ),
  undoes: auditUndoes,
})
export type AuditEntry = z.infer<typeof auditEntry>

export const auditResponse = obj({ entries: z.array(auditEntry), installed: z.boolean(), cuts: listCuts })
export type AuditResponse = z.infer<typeof auditResponse>

/** `GET /api/audit`: operator writes across runs (no contents: each links to its run's Audit tab). */
export const consoleAuditEntry = obj({
  ...runOwnerFields,
  ...auditWriteFields,
  ...auditVersionFields,
  batchId: z.string().nullable(),
  restoredVersion: version.nullable(),
  undoes: auditUndoes,
  href: z.string().describe("the run's Audit tab"),
})
export type ConsoleAuditEntry = z.infer<typeof consoleAuditEntry>
export const consoleAuditPage = obj({
  installed: z.boolean().describe('false when the audit table is missing (nothing was ever recorded)'),
  entries: z.array(consoleAuditEntry),
  nextCursor: z.string().nullable().describe('the next (older) page; null on the last'),
})
export type ConsoleAuditPage = z.infer<typeof consoleAuditPage>

/** A checkpoint block in the export: what its Checkpoint tab shows (versions, history, the resume explanation, flags). */
const checkpointBlockExport = obj({
  ...blockKeyFields,
  versions: blockDetail.shape.versions,
  history: blockDetail.shape.history,
  resume: blockDetail.shape.resume.pick({ value: true, fromVersion: true, points: true, explanation: true }),
  flags: blockDetail.shape.flags,
})

/** Any other block in the export: its physical rows (with their part), its captured history, ties and size. */
const otherBlockExport = obj({
  ...blockKeyFields,
  versions: z.array(block.extend({ part: z.string() })),
  history: z.array(block).nullable(),
  flags: obj({ ties: z.array(version), nearLimit: z.boolean() }),
})

/** `GET R/export`: one document with the run and everything the tabs show (streamed as a download). */
export const exportDocument = runDetail.extend({
  exportedAt: iso,
  blocks: z.array(block),
  blockDetails: z
    .array(z.union([checkpointBlockExport, otherBlockExport]))
    .describe("each block's versions, captured history and flags; the checkpoint also its resume explanation"),
  timeline,
  conversations: conversationsResponse.shape.conversations,
  memories: memoriesResponse.pick({ written: true, used: true, recalled: true, relied: true }),
  searches: searchesResponse.shape.searches,
  blobs: blobsResponse.pick({ blobs: true, missing: true }),
  audit: z.array(auditEntry),
  cuts: listCuts,
})
