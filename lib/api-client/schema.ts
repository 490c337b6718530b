import { queryOptions } from '@tanstack/react-query'
import { links } from '../links'
import type { SchemaReport } from '../schema/types'
import { fetchJson } from './fetch-json'
import { schemaKeys } from './keys'

export function schemaReportQueryOptions() {
  return queryOptions({
    queryKey: schemaKeys.report(),
    queryFn: ({ signal }) => fetchJson<SchemaReport>(links.api.schema(), { signal }),
    staleTime: 30_000,
  })
}

/** Asks the server to read the schema again (it may answer from a report under ten seconds old). */
export function fetchFreshSchemaReport(): Promise<SchemaReport> {
  return fetchJson<SchemaReport>(links.api.schema(true))
}
