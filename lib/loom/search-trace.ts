import { randomUUID } from 'node:crypto'
import { insertRows } from './insert'
import { toChTime } from '../tables/time'
import { identityParams, systemClock, type Clock, type Identity } from './identity'
import { tableNames } from './tables'

export type SearchTraceInput = Identity & {
  runId: string
  query: string
  mode: 'hybrid' | 'vector' | 'keyword'
  filters?: Record<string, unknown>
  topK: number
  hits: { memoryKey: string; score: number }[]
  latencyMs: number
  searchId?: string
}

/** One row of the search trace log (written by Loom when LOOM_SEARCH_TRACE_LOG_ENABLED=true). */
export async function logSearch(input: SearchTraceInput, now: Clock = systemClock): Promise<string> {
  const searchId = input.searchId ?? randomUUID()
  const ranked = [...input.hits].sort((a, b) => b.score - a.score)
  await insertRows(tableNames().searchTrace, [
    {
      ...identityParams(input),
      run_id: input.runId,
      search_id: searchId,
      query: input.query,
      mode: input.mode,
      filters: JSON.stringify(input.filters ?? {}),
      top_k: input.topK,
      result_keys: ranked.map((h) => h.memoryKey),
      result_scores: ranked.map((h) => h.score),
      latency_ms: input.latencyMs,
      event_time: toChTime(now()),
    },
  ])
  return searchId
}
