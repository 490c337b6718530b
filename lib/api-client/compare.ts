import type { CompareResponse } from '../api/types'
import { links } from '../links'
import { jsonQuery } from './json-query'
import { runKeys } from './keys'

/** Two runs side by side; `a` and `b` are `org/namespace/agent/runId` with URL-encoded segments. */
export function compareQueryOptions(a: string, b: string | null) {
  return jsonQuery<CompareResponse>(runKeys.compare(a, b), () => links.api.compare(a, b ?? undefined), {
    staleTime: 30_000,
  })
}
