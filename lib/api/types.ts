/**
 * Shapes of the HTTP API (field names are part of the contract: add, never rename). Each is
 * declared once, as a zod schema in lib/endpoints, and its type inferred there; the OpenAPI
 * document is built from the same schemas. The client takes its types from here (type imports,
 * erased at build).
 */
import type { FacetsQuerySchema } from './schemas'

export type { ListCut, RunOwner } from '../endpoints/parts'
export type { RunFlag } from '../endpoints/vocabulary'
export type { AttemptNote, ResumePoint, Segment } from '../endpoints/resume'
export type {
  ApiErrorBody,
  BlobFlag,
  Block,
  BlockDetail,
  BlocksResponse,
  BlockSummariesResponse,
  BlockSummary,
  NearMiss,
  OperatorWriteResult,
  ReplayPreview,
  VersionRow,
} from '../endpoints/blocks'
export type {
  BucketUnit,
  CheckpointSummary,
  CompareResponse,
  CompareSide,
  ConsoleEvent,
  FacetsResponse,
  RunChange,
  RunChanges,
  RunCounts,
  RunDetail,
  RunsAnalytics,
  RunsPage,
  RunStatus,
  RunSummary,
  TopRun,
} from '../endpoints/runs'
export type { EventKind } from '../endpoints/vocabulary'
export type {
  AuditEntry,
  AuditResponse,
  BlobReference,
  BlobsResponse,
  ConsoleAuditPage,
  Conversation,
  ConversationsResponse,
  LoggedSearch,
  MemoriesResponse,
  MemoryWrite,
  RunBlob,
  SearchesResponse,
  SearchHit,
  Timeline,
  TimelineEvent,
  Timeline as TimelineResponse,
  Turn,
  UsedMemory,
  WrittenMemory,
} from '../endpoints/story'
export type { DerivedFreshness, HealthResponse, Me } from '../endpoints/console'

/** A suggestion request of one runs filter box (`GET /api/runs/facets`), narrowed by the boxes before it. */
export type FacetsParams = Pick<FacetsQuerySchema, 'field' | 'prefix' | 'org' | 'namespace'>
