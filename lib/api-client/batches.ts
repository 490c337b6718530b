import type { BatchPreview, BatchResult, UndoPreview, UndoResult } from '../batch/types'
import { endpoints } from '../endpoints/api'
import type { SentBodyOf } from '../endpoints/define'
import type { RunsFilters } from '../runs-search'
import { endpointQuery, sendEndpoint } from './endpoint'

export type BatchAction = 'clear' | 'restore'
export type BatchRunKey = { org: string; namespace: string; agent: string; runId: string }

/** The request a batch dialog sends: the runs list's filters, the action, and (to retry) the runs to narrow to. */
export type BatchRequest = {
  filters: RunsFilters
  action: BatchAction
  blockKey?: string
  /** ISO time; restore only. */
  before?: string
  runs?: BatchRunKey[]
  /** Include runs still running with a recent checkpoint (skipped otherwise). */
  force?: boolean
}

function body(r: BatchRequest) {
  return {
    filter: r.filters,
    blockKey: r.blockKey ?? 'checkpoint',
    action: r.action,
    ...(r.action === 'restore' && r.before ? { before: r.before } : {}),
    ...(r.runs ? { runs: r.runs } : {}),
    ...(r.force ? { force: true } : {}),
  }
}

// The filter goes as the runs list holds it; the server checks each field.
type SentBatch = SentBodyOf<typeof endpoints.batch>

function post<T>(payload: unknown, signal?: AbortSignal) {
  return sendEndpoint<typeof endpoints.batch, T>(endpoints.batch, { body: payload as SentBatch }, signal)
}

export function previewBatchRequest(r: BatchRequest, signal?: AbortSignal) {
  return post<BatchPreview>({ ...body(r), dryRun: true }, signal)
}

export function runBatchRequest(r: BatchRequest, token: string, reason: string) {
  return post<BatchResult>({ ...body(r), dryRun: false, token, reason })
}

/** The newest batches and undos (the runs page lists a few). */
export function recentBatchesQueryOptions(limit = 5) {
  return endpointQuery(endpoints.batches, {
    query: { limit: String(limit) },
  })
}

export function previewUndoRequest(batchId: string, force: boolean, signal?: AbortSignal) {
  return sendEndpoint<typeof endpoints.undoBatch, UndoPreview>(
    endpoints.undoBatch,
    { params: { batchId }, body: { dryRun: true, ...(force ? { force: true } : {}) } },
    signal,
  )
}

export function runUndoRequest(batchId: string, force: boolean, token: string, reason: string) {
  return sendEndpoint<typeof endpoints.undoBatch, UndoResult>(endpoints.undoBatch, {
    params: { batchId },
    body: { dryRun: false, token, reason, ...(force ? { force: true } : {}) },
  })
}
