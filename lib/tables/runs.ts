import { columns, DATETIME, engine, IDENTITY_COLUMNS, type LoomTableDeclaration } from './declaration'

/** One row per run version; the row schema stays with the writes in lib/loom/runs.ts. */
export const runsTable = {
  key: 'runs',
  contractName: 'runs',
  group: 'loom',
  purpose: 'One row per run (run.begin / run.complete), a new version per write.',
  whenMissing: 'problem',
  disables: 'Runs list and run header: goal, status, attempts, cost and reflection are unavailable',
  columns: [
    ...IDENTITY_COLUMNS,
    ...columns(`
      run_id String
      goal String
      user_request String
      model String
      environment String
      metadata String
      status LowCardinality(String)
      outcome String
      final_response String
      memories_used Array(String)
      recalled_keys Array(String)
      reflection String
      confidence Nullable(Float64)
      attempt UInt32
      turns UInt32
      input_tokens UInt64
      output_tokens UInt64
      cost_usd Float64
      started_at ${DATETIME}
      last_begin_at ${DATETIME}
      completed_at Nullable(${DATETIME})
      duration_ms Nullable(UInt64)
      version UInt64`),
  ],
  engine: engine('ReplacingMergeTree', 'version'),
  sortingKey: ['org', 'namespace', 'agent', 'run_id'],
  skipIndexes: [],
} satisfies LoomTableDeclaration
