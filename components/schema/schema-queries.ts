import { queryOptions } from '@tanstack/react-query'
import { fetchJson } from '@/lib/api-client/fetch-json'
import { schemaKeys } from '@/lib/api-client/keys'
import type { SchemaReport } from '@/lib/schema/types'

export function schemaReportQueryOptions() {
  return queryOptions({
    queryKey: schemaKeys.report(),
    queryFn: ({ signal }) => fetchJson<SchemaReport>('/api/schema', { signal }),
    staleTime: 30_000,
  })
}
