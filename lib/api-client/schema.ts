import { links } from '../links'
import type { SchemaReport } from '../schema/types'
import { fetchJson } from './fetch-json'
import { jsonQuery } from './json-query'
import { schemaKeys } from './keys'

export function schemaReportQueryOptions() {
  return jsonQuery<SchemaReport>(schemaKeys.report(), () => links.api.schema(), { staleTime: 30_000 })
}

/** Asks the server to read the schema again (it may answer from a report under ten seconds old). */
export function fetchFreshSchemaReport(): Promise<SchemaReport> {
  return fetchJson<SchemaReport>(links.api.schema(true))
}
