import { queryOptions } from '@tanstack/react-query'
import { fetchJson } from '@/lib/api-client/fetch-json'
import { healthKeys, runKeys } from '@/lib/api-client/keys'
import type { BlocksResponse, HealthResponse, RunDetail, RunsPage } from '@/lib/api/types'
import type { RunRef } from '@/lib/loom/identity'
import { links } from '@/lib/links'

export type RunsListParams = Record<string, string | undefined>

export function runsListQueryOptions(params: RunsListParams) {
  const search = new URLSearchParams(Object.entries(params).filter((e): e is [string, string] => !!e[1]))
  return queryOptions({
    queryKey: runKeys.list(params),
    queryFn: ({ signal }) => fetchJson<RunsPage>(links.api.runs(search), { signal }),
  })
}

export function runDetailQueryOptions(run: RunRef) {
  return queryOptions({
    queryKey: runKeys.detail(run),
    queryFn: ({ signal }) => fetchJson<RunDetail>(links.api.run(run), { signal }),
  })
}

export function runBlocksQueryOptions(run: RunRef) {
  return queryOptions({
    queryKey: runKeys.blocks(run),
    queryFn: ({ signal }) => fetchJson<BlocksResponse>(links.api.blocks(run), { signal }),
  })
}

export function healthQueryOptions() {
  return queryOptions({
    queryKey: healthKeys.all,
    queryFn: ({ signal }) => fetchJson<HealthResponse>('/api/health', { signal }),
    staleTime: 60_000,
  })
}
