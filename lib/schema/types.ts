/** Shapes of the schema doctor's contract and of `GET /api/schema` (camelCase, add fields, rename none). */

export type Severity = 'problem' | 'warning' | 'info'

/** Which part of the product a table belongs to; the page groups cards by it. */
export type TableGroup = 'loom' | 'telemetry' | 'dashboard' | 'history' | 'runIndex'

export type ColumnSpec = { name: string; type: string; default?: string }

export type SkipIndexSpec = { name: string; expr: string; type: string; granularity: number }

/** `ReplacingMergeTree(version)` is `{ family: 'ReplacingMergeTree', args: ['version'] }`. */
export type EngineSpec = { family: string; args: string[] }

type SpecBase = {
  /** Stable id, e.g. `workingMemory` or `runIndex.sessions`. */
  key: string
  database: string
  name: string
  /** `database.name`, from the configured database names. */
  fullName: string
  group: TableGroup
  /** What the table holds, in a sentence. */
  purpose: string
  /** How serious its absence is. */
  whenMissing: Severity
  /** What the console cannot show (or do) while it is missing. */
  disables: string
}

export type TableSpec = SpecBase & {
  kind: 'table'
  engine: EngineSpec
  sortingKey: string[]
  columns: ColumnSpec[]
  skipIndexes: SkipIndexSpec[]
  /** False when only the table's presence is known (a run-index table this contract has no columns for). */
  detailed: boolean
  /** Set when the schema mapping renames this Loom table or its columns (names above are the physical ones). */
  mapping?: TableMapping
}

/** How a contract table is named in this Loom (LOOM_RUNS_SCHEMA_MAP / LOOM_RUNS_SCHEMA_MAP_FILE). */
export type TableMapping = {
  /** The contract's table name, e.g. `working_memory`. */
  contractTable: string
  /** The physical table, `database.name`. */
  table: string
  /** Contract column → physical column, only those that differ. */
  columns: { contract: string; physical: string }[]
}

export type ViewSpec = SpecBase & {
  kind: 'materializedView'
  /** The table the view writes to (`TO ...`). */
  target: string
  /** The table whose inserts feed it. */
  source: string
}

export type ObjectSpec = TableSpec | ViewSpec

export type Contract = {
  databases: { loom: string; telemetry: string; runs: string }
  objects: ObjectSpec[]
}

/* ---------- what the report says ---------- */

export type IssueCode =
  | 'missing_table'
  | 'engine'
  | 'sorting_key'
  | 'missing_column'
  | 'type_differs'
  | 'extra_column'
  | 'missing_index'
  | 'index_differs'
  | 'view_target'
  | 'view_source'
  | 'install_incomplete'

export type Issue = {
  severity: Severity
  code: IssueCode
  message: string
  /** Column or index the issue is about. */
  subject?: string
  /** Statements an admin could run to fix it (never run by the console). */
  fix?: string[]
}

export type TableStatus = 'ok' | 'info' | 'warning' | 'problem'

export type ColumnDiff = {
  expected: number
  found: number
  missing: { name: string; type: string; renamedTo?: string }[]
  typeDiffers: { name: string; expected: string; found: string; compatible: boolean }[]
  extra: { name: string; type: string }[]
}

export type SkipIndexState = {
  name: string
  expr: string
  type: string
  granularity: number
  /** ok: as specified; equivalent: same expression and type under another name or granularity. */
  state: 'ok' | 'equivalent' | 'differs' | 'missing'
  found: { name: string; expr: string; type: string; granularity: number } | null
  fix: string[]
}

export type TableReport = {
  key: string
  kind: 'table' | 'materializedView'
  group: TableGroup
  database: string
  name: string
  fullName: string
  purpose: string
  present: boolean
  status: TableStatus
  /** Set when the table is missing: what that turns off. */
  disables: string | null
  engine: { expected: string; found: string | null; ok: boolean }
  sortingKey: { expected: string[]; found: string[] | null; ok: boolean } | null
  columns: ColumnDiff | null
  skipIndexes: SkipIndexState[]
  view: { expectedTarget: string; foundTarget: string | null; source: string; sourceLinked: boolean } | null
  parts: { active: number; rows: number } | null
  rows: number | null
  /** The schema mapping in use for this table, if any. */
  mapping: TableMapping | null
  issues: Issue[]
}

export type WorkingMemoryState = {
  table: string
  activeParts: number
  /** Physical rows, every unmerged version included. */
  physicalRows: number
  /** Distinct (org, namespace, agent, user_id, session_id, run_id, block_key). */
  blocks: number | null
  /** physicalRows − blocks: versions ClickHouse has not collapsed yet. */
  unmergedVersions: number | null
  /** Why the duplicates were not counted, when they were not. */
  note: string | null
}

export type HistoryState = {
  table: string
  view: string
  tablePresent: boolean
  viewPresent: boolean
  /** Table and view both there, and the view writes into the table from working memory. */
  installed: boolean
  /** Capture runs: installed and the view is attached to working memory. */
  capturing: boolean
  rows: number | null
  oldestCapturedAt: string | null
  newestCapturedAt: string | null
  retentionDays: number | null
  summary: string
}

export type RunIndexState = {
  /** installed: read by the runs list; incomplete: some objects there, not read; absent: not installed. */
  state: 'installed' | 'incomplete' | 'absent'
  meta: string
  present: number
  expected: number
  olderInstalls: string[]
  summary: string
}

export type DatabaseState = {
  role: 'loom' | 'telemetry' | 'runs'
  name: string
  present: boolean
  engine: string | null
  /** Tables in the database the contract does not name (renamed copies, older installs, other tools). */
  otherTables: string[]
}

export type SchemaReport = {
  status: 'ok' | 'warnings' | 'problems'
  checkedAt: string
  mode: 'embedded' | 'remote'
  clickhouseVersion: string | null
  summary: {
    problems: number
    warnings: number
    info: number
    tablesExpected: number
    tablesPresent: number
  }
  databases: DatabaseState[]
  tables: TableReport[]
  workingMemory: WorkingMemoryState | null
  history: HistoryState
  runIndex: RunIndexState
  /** The schema mapping in use: where it came from and each mapped table (empty: contract names). */
  mapping: { source: string | null; tables: TableMapping[] }
  /** Each feature that is off because a table is missing. */
  disabled: { table: string; feature: string; severity: Severity }[]
}
