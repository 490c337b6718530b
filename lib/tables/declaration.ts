import type { LOOM_TABLE_KEYS, LoomTableName, TableNames } from './table-keys'
import type { ColumnSpec, EngineSpec, Severity, SkipIndexSpec, TableGroup } from '../schema/types'

/**
 * One table, declared once: the CREATE statement, the schema doctor's expectations and the column
 * lists are all read from this, so they cannot drift apart.
 */
export type TableDeclaration = {
  /** Where `tableNames()` keeps the table's fully qualified name. */
  key: keyof TableNames
  /** The data contract's name, for Loom's own tables (the schema mapping is keyed by it). */
  contractName?: LoomTableName
  group: TableGroup
  /** What the table holds, in a sentence (shown by the schema doctor). */
  purpose: string
  whenMissing: Severity
  /** What the console cannot show or do while the table is missing. */
  disables: string
  columns: ColumnSpec[]
  engine: EngineSpec
  sortingKey: string[]
  skipIndexes: SkipIndexSpec[]
  /** The TTL expression, when rows expire. */
  ttl?: string
}

/** A Loom table: its contract name and its key agree with the schema mapping's table of keys. */
export type LoomTableDeclaration = {
  [N in LoomTableName]: TableDeclaration & { contractName: N; key: (typeof LOOM_TABLE_KEYS)[N] }
}[LoomTableName]

export const DATETIME = "DateTime64(3, 'UTC')"

/** The writer identity every Loom table starts with. */
export const IDENTITY_COLUMNS: ColumnSpec[] = ['org', 'namespace', 'agent', 'user_id', 'session_id'].map((name) => ({
  name,
  type: 'String',
}))

/** The bloom filter that lets run-scoped reads skip granules of tables not sorted by run. */
export const RUN_ID_BLOOM: SkipIndexSpec = { name: 'run_id_idx', expr: 'run_id', type: 'bloom_filter', granularity: 1 }

/** Reads column lines as written in a CREATE statement (`name Type [DEFAULT expr]`), one per line. */
export function columns(text: string): ColumnSpec[] {
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean)
    .map((line) => {
      const m = /^(\w+)\s+(.+?)(?:\s+DEFAULT\s+(.+))?$/.exec(line)
      if (!m) throw new Error(`table declaration: cannot read column line "${line}"`)
      return m[3] ? { name: m[1], type: m[2], default: m[3] } : { name: m[1], type: m[2] }
    })
}

export const engine = (family: string, ...args: string[]): EngineSpec => ({ family, args })

export function columnNames(table: Pick<TableDeclaration, 'columns'>): string[] {
  return table.columns.map((c) => c.name)
}
