import { queryOptions } from '@tanstack/react-query'
import type {
  AuditResponse,
  BlobsResponse,
  ConversationsResponse,
  MemoriesResponse,
  SearchesResponse,
  TimelineResponse,
} from '../api/types'
import type { RunRef } from '../loom/identity'
import { links } from '../links'
import { fetchJson } from './fetch-json'
import { runKeys } from './keys'
import { runBlocksQueryOptions, runBlockSummariesQueryOptions } from './run-detail'
import type { RunTab } from './tab-names'

/* Run story tabs: each reads one run-scoped route. */

export function runTimelineQueryOptions(run: RunRef, limit?: number) {
  return queryOptions({
    queryKey: runKeys.timeline(run, limit),
    queryFn: ({ signal }) => fetchJson<TimelineResponse>(links.api.timeline(run, limit), { signal }),
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
  return queryOptions({
    queryKey: runKeys.conversations(run),
    queryFn: ({ signal }) => fetchJson<ConversationsResponse>(links.api.conversations(run), { signal }),
  })
}

export function runMemoriesQueryOptions(run: RunRef) {
  return queryOptions({
    queryKey: runKeys.memories(run),
    queryFn: ({ signal }) => fetchJson<MemoriesResponse>(links.api.memories(run), { signal }),
  })
}

export function runSearchesQueryOptions(run: RunRef) {
  return queryOptions({
    queryKey: runKeys.searches(run),
    queryFn: ({ signal }) => fetchJson<SearchesResponse>(links.api.searches(run), { signal }),
  })
}

export function runBlobsQueryOptions(run: RunRef) {
  return queryOptions({
    queryKey: runKeys.blobs(run),
    queryFn: ({ signal }) => fetchJson<BlobsResponse>(links.api.blobs(run), { signal }),
  })
}

export function runAuditQueryOptions(run: RunRef) {
  return queryOptions({
    queryKey: runKeys.audit(run),
    queryFn: ({ signal }) => fetchJson<AuditResponse>(links.api.audit(run), { signal }),
  })
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
