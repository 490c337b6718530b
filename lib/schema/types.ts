/** Shapes of the schema doctor's contract and of `GET /api/schema` (camelCase, add fields, rename none). */

import type { Severity, TableGroup, TableMapping } from '../endpoints/schema-report'

export type { Severity, TableGroup, TableMapping }

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

/* ---------- what the report says: declared in lib/endpoints ---------- */

export type {
  ColumnDiff,
  DatabaseState,
  HistoryState,
  Issue,
  IssueCode,
  RunIndexState,
  SchemaReport,
  SkipIndexState,
  TableReport,
  TableStatus,
  WorkingMemoryState,
} from '../endpoints/schema-report'
