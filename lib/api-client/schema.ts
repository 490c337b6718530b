import { endpoints } from '../endpoints/api'
import type { SchemaReport } from '../schema/types'
import { endpointQuery, fetchEndpoint } from './endpoint'

export function schemaReportQueryOptions() {
  return endpointQuery(endpoints.schema, {})
}

/** Asks the server to read the schema again (it may answer from a report under ten seconds old). */
export function fetchFreshSchemaReport(): Promise<SchemaReport> {
  return fetchEndpoint(endpoints.schema, { query: { refresh: '1' } })
}
