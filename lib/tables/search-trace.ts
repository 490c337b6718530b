import { z } from 'zod'
import { chTimeToIso } from './time'
import { columns, DATETIME, engine, IDENTITY_COLUMNS, type LoomTableDeclaration } from './declaration'

/** Loom's search trace log, in its telemetry database. */
export const searchTraceTable = {
  key: 'searchTrace',
  contractName: 'search_trace_log',
  group: 'telemetry',
  purpose: 'Every search a run made and its ranked hits (LOOM_SEARCH_TRACE_LOG_ENABLED=true; off by default in Loom).',
  whenMissing: 'info',
  disables:
    'Searches tab: the trace log is off or missing, so searches and their hits are not shown (nor in the Timeline)',
  columns: [
    ...IDENTITY_COLUMNS,
    ...columns(`
      run_id String
      search_id String
      query String
      mode LowCardinality(String)
      filters String
      top_k UInt16
      result_keys Array(String)
      result_scores Array(Float64)
      latency_ms Float64
      event_time ${DATETIME}`),
  ],
  engine: engine('MergeTree'),
  sortingKey: ['org', 'namespace', 'agent', 'run_id', 'event_time'],
  skipIndexes: [],
  ttl: 'toDateTime(event_time) + INTERVAL 30 DAY',
} satisfies LoomTableDeclaration

/** The SELECT list `searchRowSchema` reads. */
export const SEARCH_COLUMNS = `search_id, toString(event_time) AS event_time, query, toString(mode) AS mode, filters, top_k, latency_ms,
          user_id, session_id, result_keys, result_scores`

export const searchRowSchema = z.object({
  search_id: z.string(),
  event_time: z.string().transform(chTimeToIso),
  query: z.string(),
  mode: z.string(),
  filters: z.string(),
  top_k: z.coerce.number(),
  latency_ms: z.coerce.number(),
  user_id: z.string(),
  session_id: z.string(),
  result_keys: z.array(z.string()),
  result_scores: z.array(z.coerce.number()),
})
