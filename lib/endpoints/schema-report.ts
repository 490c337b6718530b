/** `GET /api/schema`: the schema doctor's report (camelCase; add fields, rename none). */
import { z } from 'zod'
import { clickhouseFields, iso, obj } from './parts'

export const SEVERITIES = ['problem', 'warning', 'info'] as const
export type Severity = (typeof SEVERITIES)[number]
const severity = z.enum(SEVERITIES)

/** Which part of the product a table belongs to; the page groups cards by it. */
export const TABLE_GROUPS = ['loom', 'telemetry', 'dashboard', 'history', 'runIndex'] as const
export type TableGroup = (typeof TABLE_GROUPS)[number]

/** How a contract table is named in this Loom (LOOM_RUNS_SCHEMA_MAP / LOOM_RUNS_SCHEMA_MAP_FILE). */
export const tableMapping = obj({
  contractTable: z.string().describe("the contract's table name, e.g. `working_memory`"),
  table: z.string().describe('the physical table, `database.name`'),
  columns: z
    .array(obj({ contract: z.string(), physical: z.string() }))
    .describe('contract column → physical column, only those that differ'),
})
export type TableMapping = z.infer<typeof tableMapping>

export const ISSUE_CODES = [
  'missing_table',
  'engine',
  'sorting_key',
  'missing_column',
  'type_differs',
  'extra_column',
  'missing_index',
  'index_differs',
  'view_target',
  'view_source',
  'install_incomplete',
] as const
export type IssueCode = (typeof ISSUE_CODES)[number]

export const issue = obj({
  severity,
  code: z.enum(ISSUE_CODES),
  message: z.string(),
  subject: z.string().optional().describe('column or index the issue is about'),
  fix: z.array(z.string()).optional().describe('statements an admin could run to fix it (never run by the console)'),
})
export type Issue = z.infer<typeof issue>

export const TABLE_STATUSES = ['ok', 'info', 'warning', 'problem'] as const
export type TableStatus = (typeof TABLE_STATUSES)[number]

export const columnDiff = obj({
  expected: z.number(),
  found: z.number(),
  missing: z.array(obj({ name: z.string(), type: z.string(), renamedTo: z.string().optional() })),
  typeDiffers: z.array(obj({ name: z.string(), expected: z.string(), found: z.string(), compatible: z.boolean() })),
  extra: z.array(obj({ name: z.string(), type: z.string() })),
})
export type ColumnDiff = z.infer<typeof columnDiff>

const skipIndexFields = { name: z.string(), expr: z.string(), type: z.string(), granularity: z.number() }

export const skipIndexState = obj({
  ...skipIndexFields,
  state: z
    .enum(['ok', 'equivalent', 'differs', 'missing'])
    .describe('ok: as specified; equivalent: same expression and type under another name or granularity'),
  found: obj(skipIndexFields).nullable(),
  fix: z.array(z.string()),
})
export type SkipIndexState = z.infer<typeof skipIndexState>

export const tableReport = obj({
  key: z.string(),
  kind: z.enum(['table', 'materializedView']),
  group: z.enum(TABLE_GROUPS),
  database: z.string(),
  name: z.string(),
  fullName: z.string(),
  purpose: z.string(),
  present: z.boolean(),
  status: z.enum(TABLE_STATUSES),
  disables: z.string().nullable().describe('set when the table is missing: what that turns off'),
  engine: obj({ expected: z.string(), found: z.string().nullable(), ok: z.boolean() }),
  sortingKey: obj({ expected: z.array(z.string()), found: z.array(z.string()).nullable(), ok: z.boolean() }).nullable(),
  columns: columnDiff.nullable(),
  skipIndexes: z.array(skipIndexState),
  view: obj({
    expectedTarget: z.string(),
    foundTarget: z.string().nullable(),
    source: z.string(),
    sourceLinked: z.boolean(),
  }).nullable(),
  parts: obj({ active: z.number(), rows: z.number() }).nullable(),
  rows: z.number().nullable(),
  mapping: tableMapping.nullable().describe('the schema mapping in use for this table, if any'),
  issues: z.array(issue),
})
export type TableReport = z.infer<typeof tableReport>

export const workingMemoryState = obj({
  table: z.string(),
  activeParts: z.number(),
  physicalRows: z.number().describe('physical rows, every unmerged version included'),
  blocks: z.number().nullable().describe('distinct (org, namespace, agent, user_id, session_id, run_id, block_key)'),
  unmergedVersions: z.number().nullable().describe('physicalRows − blocks: versions ClickHouse has not collapsed yet'),
  note: z.string().nullable().describe('why the duplicates were not counted, when they were not'),
})
export type WorkingMemoryState = z.infer<typeof workingMemoryState>

export const historyState = obj({
  table: z.string(),
  view: z.string(),
  tablePresent: z.boolean(),
  viewPresent: z.boolean(),
  installed: z.boolean().describe('table and view both there, and the view writes into the table from working memory'),
  capturing: z.boolean().describe('capture runs: installed and the view is attached to working memory'),
  rows: z.number().nullable(),
  oldestCapturedAt: z.string().nullable(),
  newestCapturedAt: z.string().nullable(),
  retentionDays: z.number().nullable(),
  summary: z.string(),
})
export type HistoryState = z.infer<typeof historyState>

export const runIndexState = obj({
  state: z
    .enum(['installed', 'incomplete', 'absent'])
    .describe('installed: read by the runs list; incomplete: some objects there, not read; absent: not installed'),
  meta: z.string(),
  present: z.number(),
  expected: z.number(),
  olderInstalls: z.array(z.string()),
  summary: z.string(),
})
export type RunIndexState = z.infer<typeof runIndexState>

export const databaseState = obj({
  role: z.enum(['loom', 'telemetry', 'runs']),
  name: z.string(),
  present: z.boolean(),
  engine: z.string().nullable(),
  otherTables: z
    .array(z.string())
    .describe('tables in the database the contract does not name (renamed copies, older installs, other tools)'),
})
export type DatabaseState = z.infer<typeof databaseState>

export const schemaReport = obj({
  status: z.enum(['ok', 'warnings', 'problems']),
  checkedAt: iso,
  cached: z
    .boolean()
    .optional()
    .describe(
      'GET /api/schema: true when the report is one read earlier (checkedAt says when); refresh=1 reads it again',
    ),
  ...clickhouseFields,
  summary: obj({
    problems: z.number(),
    warnings: z.number(),
    info: z.number(),
    tablesExpected: z.number(),
    tablesPresent: z.number(),
  }),
  databases: z.array(databaseState),
  tables: z.array(tableReport),
  workingMemory: workingMemoryState.nullable(),
  history: historyState,
  runIndex: runIndexState,
  mapping: obj({ source: z.string().nullable(), tables: z.array(tableMapping) }).describe(
    'the schema mapping in use: where it came from and each mapped table (empty: contract names)',
  ),
  disabled: z
    .array(obj({ table: z.string(), feature: z.string(), severity }))
    .describe('each feature that is off because a table is missing'),
})
export type SchemaReport = z.infer<typeof schemaReport>
