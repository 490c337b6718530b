import type { RunFlag } from '../triage/flags'
import type { Timeline } from '../queries/timeline'
import type { Conversation } from '../queries/conversations'
import type { AuditEntry } from '../queries/audit'
import type { RunBlob } from '../queries/context-blobs'
import type { ListCut } from '../queries/list-cut'
import type { UsedMemory, WrittenMemory } from '../queries/memory'
import type { LoggedSearch } from '../queries/search-trace'
import type { FacetsQuerySchema } from './schemas'
import type { AttemptNote } from '../resume/attempts'
import type { ResumePoint, Segment } from '../resume/types'

/** Shapes of the HTTP API (field names are part of the contract: add, never rename). */

export type RunStatus = 'running' | 'succeeded' | 'failed' | 'cancelled' | 'unknown'

export type CheckpointSummary = {
  version: string
  updatedAt: string
  chars: number
  charLimit: number
  isDeleted: boolean
  userId: string
  sessionId: string
}

/** A run and the identity (user, session) its row was written under. */
export type RunOwner = {
  org: string
  namespace: string
  agent: string
  runId: string
  userId: string
  sessionId: string
}

export type RunSummary = RunOwner & {
  goal: string
  status: RunStatus | string
  attempt: number
  startedAt: string
  completedAt: string | null
  durationMs: number | null
  turns: number
  costUsd: number
  checkpoint: CheckpointSummary | null
  /** What is unusual about the run (lib/triage/flags.ts), in RUN_FLAGS order. */
  flags: RunFlag[]
}

export type RunsPage = {
  runs: RunSummary[]
  nextCursor: string | null
  /**
   * Set when a flag-filtered page stopped looking before it was full (it reads a bounded number of
   * runs per request): runs started before this time (ISO 8601 UTC) were not checked yet, and
   * nextCursor goes on from there. Fewer runs than `limit` then does not mean there are no more.
   */
  searchedTo?: string
  /**
   * Never sent by the API. Set on a first page the server rendered before its flags were read:
   * every run's `flags` is empty until they arrive (the runs page streams them after the rows).
   */
  flagsPending?: true
}

export type RunCounts = {
  blocks: number
  versions: number
  turns: number
  memories: number
  searches: number
  blobs: number
}

export type RunDetail = {
  run: RunSummary & { reflection: string; outcome: string; lastBeginAt: string | null; hasRunRow: boolean }
  memoriesUsed: string[]
  recalledKeys: string[]
  inputTokens: number
  outputTokens: number
  model: string
  counts: RunCounts
}

export type Block = {
  userId: string
  sessionId: string
  blockKey: string
  version: string
  content: string
  isDeleted: boolean
  charLimit: number
  chars: number
  actor: string
  sourceTrace: string
  updatedAt: string
}

export type BlocksResponse = { blocks: Block[] }

/** A block as `GET R/blocks?content=none` lists it: every field but `content`. */
export type BlockSummary = Omit<Block, 'content'>
export type BlockSummariesResponse = { blocks: BlockSummary[] }

export type ApiErrorBody = { error: { code: string; message: string; field?: string }; current?: Block | null }

export type HealthResponse = {
  mode: 'embedded' | 'remote'
  clickhouseVersion: string | null
  readOnly: boolean
  schema: { phase: string; detail?: string; tables: { name: string; present: boolean }[] }
  /** The optional parts `npm run db:init` installs: the runs list is slow without the run index; older versions vanish without history. */
  setup: { runIndex: boolean; history: boolean; command: string }
  /**
   * The embedded engine's use since start-up, read before this request's own statements: it runs
   * one statement at a time, so busyMs over a time span is how much of it the engine was held
   * (npm run load-test reports it). Null for a ClickHouse server.
   */
  engine: { statements: number; busyMs: number } | null
  /**
   * The derived tables (run index, flags, facets, analytics): how far they trail the agents' writes
   * (null before the first batch, or when they are not installed), when the last batch ended, and
   * its failure (null when it succeeded).
   */
  derived: DerivedFreshness
}

export type DerivedFreshness = { lagMs: number | null; lastRunAt: string | null; error: string | null }

export type VersionRow = Block & { part: string; isFinal: boolean }

export type NearMiss = { agent: string; userId: string; sessionId: string; blockKey: string; version: string; isDeleted: boolean; updatedAt: string }

export type BlobFlag = { blobKey: string; state: 'live' | 'expired' | 'missing'; expiresAt: string | null }

export type BlockDetail = {
  block: Block | null
  versions: VersionRow[]
  history: Block[] | null
  historyInstalled: boolean
  resume: {
    value: string | null
    fromVersion: string | null
    points: ResumePoint[]
    explanation: string[]
    /** Every attempt (run.begin) of the run and what it wrote under this identity; [] for another identity. */
    attempts: AttemptNote[]
    /** The same as one sentence, or null for fewer than two attempts. */
    attemptsText: string | null
    segments: Segment[]
    mermaid: string
    source: 'history' | 'physical'
  }
  flags: { ties: string[]; nearMisses: NearMiss[]; nearLimit: boolean; blob: BlobFlag | null }
}

/*
 * Bodies of the runs page and the run story tabs. Their element shapes are declared beside the
 * queries that build them; the client takes them from here only (type imports, erased at build), and
 * response-types.test.ts fails the type-check when a body below drifts from what the server returns.
 */

export type { Timeline, TimelineEvent } from '../queries/timeline'
export type { ConsoleEvent, EventKind } from '../queries/events'
export type { CompareResponse, CompareSide } from '../queries/compare'
export type { Conversation } from '../queries/conversations'
export type { Turn } from '../tables/conversation-turns'
export type { AuditEntry } from '../queries/audit'
export type { RunBlob } from '../queries/context-blobs'
export type { ReplayPreview } from '../queries/replay'
export type { ListCut } from '../queries/list-cut'
export type { UsedMemory, WrittenMemory } from '../queries/memory'
export type { LoggedSearch, MemoryWrite, SearchHit } from '../queries/search-trace'
export type { RunsAnalytics, TopRun } from '../queries/analytics-types'
export type { BucketUnit } from '../queries/analytics-buckets'
export type { FacetsResponse } from '../queries/run-facets'
export type { ConsoleAuditPage } from '../queries/console-audit'
export type { Me } from '../auth/me'

export type TimelineResponse = Timeline
export type ConversationsResponse = { conversations: Conversation[]; cuts?: ListCut[] }
export type AuditResponse = { entries: AuditEntry[]; installed: boolean; cuts: ListCut[] }
export type MemoriesResponse = { cuts: ListCut[]; written: WrittenMemory[]; used: string[]; recalled: string[]; relied: UsedMemory[] }
export type SearchesResponse = { searches: LoggedSearch[]; traceLog: 'missing' | 'on' | 'empty'; cuts: ListCut[] }
/** A block version that names a blob in its content. */
export type BlobReference = RunBlob['referencedBy'][number]
export type BlobsResponse = { blobs: RunBlob[]; missing: { blobKey: string; referencedBy: BlobReference[] }[]; cuts: ListCut[] }

/** A suggestion request of one runs filter box (`GET /api/runs/facets`), narrowed by the boxes before it. */
export type FacetsParams = Pick<FacetsQuerySchema, 'field' | 'prefix' | 'org' | 'namespace'>

/** The runs page's live poll (`GET /api/runs/changes`). */
export type RunChange = {
  org: string
  namespace: string
  agent: string
  runId: string
  /** The run's status now (`unknown` for a checkpoint-only run). */
  status: string
  /** Its latest write, ISO 8601 UTC. */
  changedAt: string
  /** Whether the run passes the whole filter now (status, q, from, to); runs are reported either way,
   *  so a run that just left the filter (e.g. finished while the view shows `running`) is seen too. */
  inFilter: boolean
}

export type RunChanges = {
  /** Pass back as `since` on the next poll. */
  since: string
  runs: RunChange[]
  /** More runs changed than are listed: refetch everything. */
  truncated: boolean
}
