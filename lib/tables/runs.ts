import { z } from 'zod'
import { chTimeToIso } from './time'
import { ownerColumns, versionString } from './values'
import { columnNames, columns, DATETIME, engine, IDENTITY_COLUMNS, type LoomTableDeclaration } from './declaration'

/** One row per run version (run.begin, run.complete and usage each write a new one). */
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

/** A runs row as ClickHouse returns it (every column, in the declared order). */
export const runRowSchema = z.object({
  ...ownerColumns,
  goal: z.string(),
  user_request: z.string(),
  model: z.string(),
  environment: z.string(),
  metadata: z.string(),
  status: z.string(),
  outcome: z.string(),
  final_response: z.string(),
  memories_used: z.array(z.string()),
  recalled_keys: z.array(z.string()),
  reflection: z.string(),
  confidence: z.number().nullable(),
  attempt: z.coerce.number(),
  turns: z.coerce.number(),
  input_tokens: z.coerce.number(),
  output_tokens: z.coerce.number(),
  cost_usd: z.coerce.number(),
  started_at: z.string().transform(chTimeToIso),
  last_begin_at: z.string().transform(chTimeToIso),
  completed_at: z
    .string()
    .nullable()
    .transform((v) => (v === null ? null : chTimeToIso(v))),
  duration_ms: z.coerce.number().nullable(),
  version: versionString,
})
export type RunRow = z.infer<typeof runRowSchema>

/** The SELECT list `runRowSchema` reads. */
export const RUN_COLUMNS = columnNames(runsTable).join(', ')
