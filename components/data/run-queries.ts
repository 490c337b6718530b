import { queryOptions } from '@tanstack/react-query'
import { fetchJson } from '@/lib/api-client/fetch-json'
import { healthKeys, runKeys } from '@/lib/api-client/keys'
import type { BlockDetail, BlockSummariesResponse, BlocksResponse, HealthResponse, RunDetail, RunsPage } from '@/lib/api/types'
import type { RunRef } from '@/lib/loom/identity'
import { links } from '@/lib/links'
import { runsSearch, type RunsFilters, type RunsListParams } from '@/lib/runs-search'
import type { AuditEntry } from '@/lib/queries/audit'
import type { RunsAnalytics } from '@/lib/queries/analytics-types'
import type { FacetsResponse } from '@/lib/queries/run-facets'
import type { runBlobs } from '@/lib/queries/context-blobs'
import type { Conversation } from '@/lib/queries/conversations'
import type { ListCut } from '@/lib/queries/list-cut'
import type { runMemories } from '@/lib/queries/memory'
import type { RunChanges } from '@/lib/queries/run-changes'
import type { runSearches } from '@/lib/queries/search-trace'
import type { Timeline } from '@/lib/queries/timeline'

export type { RunsListParams }

export function runsListQueryOptions(params: RunsListParams) {
  const search = runsSearch(params)
  return queryOptions({
    queryKey: runKeys.list(params),
    queryFn: ({ signal }) => fetchJson<RunsPage>(links.api.runs(search), { signal }),
    // The live poll (use-live-runs) refetches a list as soon as a run in it changes, so a page
    // rendered on the server stays good while a slow device hydrates it: no second fetch then.
    staleTime: 30_000,
  })
}

export function runDetailQueryOptions(run: RunRef) {
  return queryOptions({
    queryKey: runKeys.detail(run),
    queryFn: ({ signal }) => fetchJson<RunDetail>(links.api.run(run), { signal }),
    // While the run cannot be loaded because ClickHouse is away (5xx, no answer), ask again every
    // 10 s: the page heals by itself. A 4xx (unknown run, bad id) will not change by waiting.
    refetchInterval: (query) => {
      const status = (query.state.error as { status?: number } | null)?.status
      return query.state.status === 'error' && !(status && status < 500) ? 10_000 : false
    },
  })
}

export function runBlocksQueryOptions(run: RunRef) {
  return queryOptions({
    queryKey: runKeys.blocks(run),
    queryFn: ({ signal }) => fetchJson<BlocksResponse>(links.api.blocks(run), { signal }),
  })
}

/** Every block without its content: names, versions, sizes and writers, for the Checkpoint tab's picker. */
export function runBlockSummariesQueryOptions(run: RunRef) {
  return queryOptions({
    queryKey: runKeys.blockSummaries(run),
    queryFn: ({ signal }) => fetchJson<BlockSummariesResponse>(links.api.blocks(run, { content: 'none' }), { signal }),
  })
}

export type BlockSelector = { blockKey: string; userId: string; sessionId: string }

export function blockDetailQueryOptions(run: RunRef, sel: BlockSelector) {
  return queryOptions({
    queryKey: runKeys.block(run, sel.blockKey, sel.userId, sel.sessionId),
    queryFn: ({ signal }) => fetchJson<BlockDetail>(links.api.block(run, sel.blockKey, sel.userId, sel.sessionId), { signal }),
  })
}

/* Run story tabs: each reads one run-scoped route. Response types come from the query modules (types only). */
export type TimelineResponse = Timeline
export type ConversationsResponse = { conversations: Conversation[]; cuts?: ListCut[] }
export type AuditResponse = { entries: AuditEntry[]; installed: boolean; cuts: ListCut[] }
export type MemoriesResponse = Awaited<ReturnType<typeof runMemories>>
export type SearchesResponse = Awaited<ReturnType<typeof runSearches>>
export type BlobsResponse = Awaited<ReturnType<typeof runBlobs>>

export function runTimelineQueryOptions(run: RunRef, limit?: number) {
  return queryOptions({
    queryKey: runKeys.timeline(run, limit),
    queryFn: ({ signal }) => fetchJson<TimelineResponse>(links.api.timeline(run, limit), { signal }),
  })
}

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

/** The run page's tabs, in the order the tab bar shows them; `?tab=` names one. */
export const RUN_TABS = ['checkpoint', 'timeline', 'conversation', 'memories', 'searches', 'blobs', 'blocks', 'audit'] as const
export type RunTab = (typeof RUN_TABS)[number]

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

export function healthQueryOptions() {
  return queryOptions({
    queryKey: healthKeys.all,
    queryFn: ({ signal }) => fetchJson<HealthResponse>('/api/health', { signal }),
    staleTime: 60_000,
  })
}

/* Runs page summary and live refresh: the list's filters without cursor or limit. */
export type RunsFilterParams = RunsFilters

function filterSearch(filters: RunsFilterParams, extra: Record<string, string | undefined> = {}) {
  const qs = runsSearch({ ...filters, ...extra })
  return qs.size ? `?${qs}` : ''
}

export function runsAnalyticsQueryOptions(filters: RunsFilterParams) {
  return queryOptions({
    queryKey: runKeys.analytics(filters),
    queryFn: ({ signal }) => fetchJson<RunsAnalytics>(`/api/runs/analytics${filterSearch(filters)}`, { signal }),
    staleTime: 30_000,
  })
}

/**
 * One poll for runs written since the previous poll of the same filters: the watermark travels
 * in the query's own cached data, so the first poll only fetches one.
 */
export function runChangesQueryOptions(filters: RunsFilterParams) {
  return queryOptions({
    queryKey: runKeys.changes(filters),
    queryFn: ({ signal, client, queryKey }) => {
      const since = client.getQueryData<RunChanges>(queryKey)?.since
      return fetchJson<RunChanges>(`/api/runs/changes${filterSearch(filters, { since })}`, { signal })
    },
    staleTime: 0,
  })
}

export type FacetsParams = { field: 'org' | 'namespace' | 'agent'; prefix?: string; org?: string; namespace?: string }

/** Values of one filter field that start with what the operator typed, most runs first. */
export function runFacetsQueryOptions(params: FacetsParams) {
  return queryOptions({
    queryKey: runKeys.facets(params),
    queryFn: ({ signal }) => fetchJson<FacetsResponse>(`/api/runs/facets?${runsSearch({ ...params, limit: '8' })}`, { signal }),
    staleTime: 60_000,
  })
}
