import { endpoints } from '../endpoints/api'
import type { RunRef } from '../loom/identity'
import { endpointQuery } from './endpoint'
import { runBlocksQueryOptions, runBlockSummariesQueryOptions } from './run-detail'
import type { RunTab } from './tab-names'

/* Run story tabs: each reads one run-scoped route. */

export function runTimelineQueryOptions(run: RunRef, limit?: number) {
  return endpointQuery(endpoints.timeline, {
    params: run,
    query: limit ? { limit: String(limit) } : {},
  })
}

/**
 * A long timeline's first events: the run page reads them with the page, so the first rows show
 * while the whole timeline is still on its way (the tab shows them as its placeholder).
 */
export const TIMELINE_PREVIEW_EVENTS = 300

export function runTimelinePreviewQueryOptions(run: RunRef) {
  return runTimelineQueryOptions(run, TIMELINE_PREVIEW_EVENTS)
}

/** A long transcript's first turns, which the run page reads with the page (see TIMELINE_PREVIEW_EVENTS). */
export const CONVERSATION_PREVIEW_TURNS = 300

export function runConversationsQueryOptions(run: RunRef) {
  return endpointQuery(endpoints.conversations, { params: run })
}

export function runMemoriesQueryOptions(run: RunRef) {
  return endpointQuery(endpoints.memories, { params: run })
}

export function runSearchesQueryOptions(run: RunRef) {
  return endpointQuery(endpoints.searches, { params: run })
}

export function runBlobsQueryOptions(run: RunRef) {
  return endpointQuery(endpoints.blobs, { params: run })
}

export function runAuditQueryOptions(run: RunRef) {
  return endpointQuery(endpoints.runAudit, { params: run })
}

/**
 * The first data each tab shows: the client asks for it together with the run, and the server
 * reads it into the same keys for the page's HTML, so the client takes over without asking again.
 */
export const RUN_TAB_QUERY = {
  checkpoint: runBlockSummariesQueryOptions,
  blocks: runBlocksQueryOptions,
  timeline: (run: RunRef) => runTimelineQueryOptions(run),
  conversation: runConversationsQueryOptions,
  memories: runMemoriesQueryOptions,
  searches: runSearchesQueryOptions,
  blobs: runBlobsQueryOptions,
  audit: runAuditQueryOptions,
} satisfies Record<RunTab, (run: RunRef) => unknown>
