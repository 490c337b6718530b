import { getConfig } from '../config'
import type { SchemaMap } from '../tables/schema-map'
import { LOOM_TABLE_KEYS, type LoomTableName, type TableNames } from '../tables/table-keys'

type Databases = ReturnType<typeof getConfig>['databases']

export function tableNames(
  databases: Databases = getConfig().databases,
  map: SchemaMap = getConfig().schemaMap,
): TableNames {
  const { loom, telemetry, runs } = databases
  const name = (contract: LoomTableName, database: string) => {
    const mapped = map[contract]?.table
    if (!mapped) return `${database}.${contract}`
    return mapped.includes('.') ? mapped : `${database}.${mapped}`
  }
  return {
    workingMemory: name('working_memory', loom),
    runs: name('runs', loom),
    conversations: name('conversations', loom),
    turns: name('conversation_turns', loom),
    memory: name('memory', loom),
    contextBlobs: name('context_blobs', loom),
    searchTrace: name('search_trace_log', telemetry),
    audit: `${runs}.audit_log`,
    revokedSessions: `${runs}.revoked_sessions`,
    batches: `${runs}.batches`,
    setupLog: `${runs}.setup_log`,
    savedViews: `${runs}.saved_views`,
    alertDeliveries: `${runs}.alert_deliveries`,
    history: `${runs}.working_memory_history`,
    historyView: `${runs}.working_memory_history_mv`,
  }
}

/** Loom's own tables (the contract's seven), physical names: what `db:init` creates and a mapping may move. */
export function loomTableList(t: TableNames): string[] {
  return [t.workingMemory, t.runs, t.conversations, t.turns, t.memory, t.contextBlobs, t.searchTrace]
}

/** The tables the health check reports on, in its order: Loom's tables, the audit log and the history capture. */
export function healthTableList(t: TableNames): string[] {
  return [...loomTableList(t), t.audit, t.history]
}

/** Column renames (contract name → physical name) of the Loom table stored under this physical name. */
export function columnRenames(table: string, config = getConfig()): Record<string, string> | undefined {
  const t = tableNames(config.databases, config.schemaMap)
  for (const [contract, key] of Object.entries(LOOM_TABLE_KEYS) as [LoomTableName, keyof TableNames][]) {
    if (t[key] === table) return config.schemaMap[contract]?.columns
  }
  return undefined
}

/**
 * The table expression to read a table with the contract's column names: the table itself, or for a
 * table with renamed columns a subquery that renames them back. Filters on the outer query are pushed
 * into the subquery by ClickHouse, so the sorting key still prunes granules (tests/schema-map.test.ts
 * compares rows read). `part` also exposes the `_part` and `_partition_id` virtual columns through the subquery.
 */
export function source(table: string, options: { final?: boolean; part?: boolean } = {}): string {
  const final = options.final ? ' FINAL' : ''
  const renames = columnRenames(table)
  if (!renames) return `${table}${final}`
  const entries = Object.entries(renames)
  const select = [
    // Both names are left out of `*`, so a physical column that happens to carry a renamed column's
    // contract name never sits next to it under the same name (EXCEPT ignores absent names).
    `* EXCEPT (${[...new Set(entries.flat())].join(', ')})`,
    ...entries.map(([logical, physical]) => `${physical} AS ${logical}`),
    ...(options.part ? ['_part', '_partition_id'] : []),
  ]
  return `(SELECT ${select.join(', ')} FROM ${table}${final})`
}

/** Renames the contract's column names of rows bound for a mapped table to the physical names. */
export function physicalRows<T extends Record<string, unknown>>(table: string, rows: T[]): Record<string, unknown>[] {
  const renames = columnRenames(table)
  if (!renames) return rows
  return rows.map((row) => Object.fromEntries(Object.entries(row).map(([k, v]) => [renames[k] ?? k, v])))
}

/** Renames contract column names inside a CREATE statement written for the contract's names. */
export function physicalDdl(table: string, sql: string): string {
  const renames = columnRenames(table)
  if (!renames) return sql
  return sql.replace(/\b[A-Za-z_][A-Za-z0-9_]*\b/g, (word, offset: number) => {
    // Only rename words after the table name (the column list and the engine/key clauses).
    return offset > sql.indexOf(table) + table.length && Object.hasOwn(renames, word) ? renames[word] : word
  })
}

/** A dashboard structure's object names placed in its database: `{ runs: 'run_index' }` → `{ runs: 'db.run_index' }`. */
export function inDatabase<K extends string>(database: string, names: Record<K, string>): Record<K, string> {
  return Object.fromEntries(Object.entries<string>(names).map(([key, name]) => [key, `${database}.${name}`])) as Record<
    K,
    string
  >
}

/**
 * One object of a dashboard structure's DDL (run index, facets): created in list order, described
 * to the schema doctor by `what`. `source`: the table a view is fed by, where its SQL names another
 * table first.
 */
export type DdlObject = { name: string; kind: 'table' | 'view'; sql: string; what: string; source?: string }
