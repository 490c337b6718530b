import { queryOptions } from '@tanstack/react-query'
import type { FacetsParams, RunChanges, RunsPage } from '../api/types'
import { endpoints } from '../endpoints/api'
import { FACETS_LIMIT } from '../links'
import type { RunsFilters, RunsListParams } from '../runs-search'
import { endpointKey, endpointQuery, fetchEndpoint } from './endpoint'

export function runsListQueryOptions(params: RunsListParams) {
  return endpointQuery<typeof endpoints.runs, RunsPage>(endpoints.runs, { query: params })
}

/* Runs page summary and live refresh: the list's filters without cursor or limit. */

export function runsAnalyticsQueryOptions(filters: RunsFilters) {
  return endpointQuery(endpoints.analytics, { query: filters })
}

/** Operator and setup changes in a time range, under the list's org, namespace and agent. */
export function eventsQueryOptions(q: {
  from?: string
  to?: string
  org?: string
  namespace?: string
  agent?: string
}) {
  return endpointQuery(endpoints.events, { query: q })
}

/**
 * One poll for runs written since the previous poll of the same filters: the watermark travels
 * in the query's own cached data, so the first poll only fetches one.
 */
export function runChangesQueryOptions(filters: RunsFilters) {
  return queryOptions({
    queryKey: endpointKey(endpoints.changes, { query: filters }),
    queryFn: ({ signal, client, queryKey }) => {
      const since = client.getQueryData<RunChanges>(queryKey)?.since
      return fetchEndpoint(endpoints.changes, { query: { ...filters, since } }, signal)
    },
    staleTime: endpoints.changes.client?.staleTime ?? 0,
  })
}

/** Values of one filter field that start with what the operator typed, most runs first. */
export function runFacetsQueryOptions(params: FacetsParams) {
  return endpointQuery(endpoints.facets, {
    query: { ...params, limit: FACETS_LIMIT },
  })
}

/** A page of the console-wide audit log under these filters (each page has its own cursor). */
export function consoleAuditQueryOptions(query: Record<string, string>) {
  return endpointQuery(endpoints.audit, { query })
}
