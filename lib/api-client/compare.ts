import { endpoints } from '../endpoints/api'
import { endpointQuery } from './endpoint'

/** Two runs side by side; `a` and `b` are `org/namespace/agent/runId` with URL-encoded segments. */
export function compareQueryOptions(a: string, b: string | null) {
  return endpointQuery(endpoints.compare, {
    query: { a, ...(b ? { b } : {}) },
  })
}
