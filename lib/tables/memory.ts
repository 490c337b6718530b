import { columns, DATETIME, engine, IDENTITY_COLUMNS, RUN_ID_BLOOM, type LoomTableDeclaration } from './declaration'

export const memoryTable = {
  key: 'memory',
  contractName: 'memory',
  group: 'loom',
  purpose: 'Durable memories; those a run wrote carry its run_id.',
  whenMissing: 'warning',
  disables: 'Memories tab, memory.write events in the Timeline, and the writers of search hits',
  columns: [
    ...IDENTITY_COLUMNS,
    ...columns(`
      memory_key String
      memory_id String
      memory_type LowCardinality(String)
      value String
      run_id String
      version UInt64
      status LowCardinality(String)
      confidence Float64
      pinned UInt8
      tags Array(String)
      actor String
      created_at ${DATETIME}
      updated_at ${DATETIME}`),
  ],
  engine: engine('ReplacingMergeTree', 'version'),
  sortingKey: ['org', 'namespace', 'agent', 'user_id', 'session_id', 'memory_key'],
  skipIndexes: [RUN_ID_BLOOM],
} satisfies LoomTableDeclaration
