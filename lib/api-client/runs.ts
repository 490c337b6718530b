import { queryOptions } from '@tanstack/react-query'
import type { ConsoleEvent, FacetsParams, FacetsResponse, RunChanges, RunsAnalytics, RunsPage } from '../api/types'
import { links } from '../links'
import { runsSearch, type RunsFilters, type RunsListParams } from '../runs-search'
import { fetchJson } from './fetch-json'
import { jsonQuery } from './json-query'
import { runKeys } from './keys'

export function runsListQueryOptions(params: RunsListParams) {
  return jsonQuery<RunsPage>(runKeys.list(params), () => links.api.runs(runsSearch(params)), {
    // The live poll (use-live-runs) refetches a list as soon as a run in it changes, so a page
    // rendered on the server stays good while a slow device hydrates it: no second fetch then.
    staleTime: 30_000,
  })
}

/* Runs page summary and live refresh: the list's filters without cursor or limit. */

export function runsAnalyticsQueryOptions(filters: RunsFilters) {
  return jsonQuery<RunsAnalytics>(runKeys.analytics(filters), () => links.api.runsAnalytics(filters), {
    staleTime: 30_000,
  })
}

/** Operator and setup changes in a time range, under the list's org, namespace and agent. */
export function eventsQueryOptions(q: {
  from?: string
  to?: string
  org?: string
  namespace?: string
  agent?: string
}) {
  return jsonQuery<{ events: ConsoleEvent[] }>(runKeys.events(q), () => links.api.events(q), { staleTime: 30_000 })
}

/**
 * One poll for runs written since the previous poll of the same filters: the watermark travels
 * in the query's own cached data, so the first poll only fetches one.
 */
export function runChangesQueryOptions(filters: RunsFilters) {
  return queryOptions({
    queryKey: runKeys.changes(filters),
    queryFn: ({ signal, client, queryKey }) => {
      const since = client.getQueryData<RunChanges>(queryKey)?.since
      return fetchJson<RunChanges>(links.api.runChanges(filters, since), { signal })
    },
    staleTime: 0,
  })
}

/** Values of one filter field that start with what the operator typed, most runs first. */
export function runFacetsQueryOptions(params: FacetsParams) {
  return jsonQuery<FacetsResponse>(runKeys.facets(params), () => links.api.runFacets(params), { staleTime: 60_000 })
}
