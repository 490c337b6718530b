import { columns, DATETIME, engine, IDENTITY_COLUMNS, type LoomTableDeclaration } from './declaration'

/** Loom's search trace log, in its telemetry database. */
export const searchTraceTable = {
  key: 'searchTrace',
  contractName: 'search_trace_log',
  group: 'telemetry',
  purpose: 'Every search a run made and its ranked hits (LOOM_SEARCH_TRACE_LOG_ENABLED=true; off by default in Loom).',
  whenMissing: 'info',
  disables: 'Searches tab: the trace log is off or missing, so searches and their hits are not shown (nor in the Timeline)',
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
