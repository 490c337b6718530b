import { auditLogTable } from '../tables/audit-log'
import { createTableSql } from '../tables/create-table'
import { columnNames } from '../tables/declaration'
import { LOOM_TABLES } from '../tables/loom-tables'
import { revokedSessionsTable } from '../tables/revoked-sessions'
import { batchesTable } from '../tables/batches'
import { setupLogTable } from '../tables/setup-log'
import { alertDeliveriesTable, savedViewsTable } from '../tables/saved-views'
import { workingMemoryTable } from '../tables/working-memory'
import { HISTORY_RETENTION_DAYS, historyTtl, workingMemoryHistoryTable } from '../tables/working-memory-history'
import { physicalDdl, source } from './tables'
import type { TableNames } from '../tables/table-keys'

/** CREATE statements for Loom's tables, as fixed by the data contract. Never ALTER or DROP. */
export function loomTableDdl(t: TableNames): { table: string; sql: string }[] {
  // A mapped table gets its physical table and column names.
  return LOOM_TABLES.map((table) => {
    const name = t[table.key]
    return { table: name, sql: physicalDdl(name, createTableSql(table, name)) }
  })
}

/** The dashboard's own audit table: one row per operator action. */
export function auditTableDdl(t: TableNames): string {
  return createTableSql(auditLogTable, t.audit)
}

/**
 * Columns added to the audit table after its first release. `ADD COLUMN IF NOT EXISTS` leaves an
 * install that has them untouched; rows written before read as the default ('' = not in a batch).
 */
export function auditTableUpgrades(t: TableNames): string[] {
  return [
    `ALTER TABLE ${t.audit} ADD COLUMN IF NOT EXISTS batch_id String DEFAULT '' AFTER request_id`,
    `ALTER TABLE ${t.audit} ADD COLUMN IF NOT EXISTS restored_version String DEFAULT '' AFTER batch_id`,
  ]
}

/** Login sessions ended on the server (logout): refused until they would have expired anyway. */
export function revokedSessionsDdl(t: TableNames): string {
  return createTableSql(revokedSessionsTable, t.revokedSessions)
}

/** Every batch and undo the console ran, with its items (so it can be taken back). */
export function batchesDdl(t: TableNames): string {
  return createTableSql(batchesTable, t.batches)
}

/** What each setup run changed (db:init, the embedded engine's first start). */
export function setupLogDdl(t: TableNames): string {
  return createTableSql(setupLogTable, t.setupLog)
}

/** Saved views of the runs list and their alert deliveries. */
export function savedViewsDdl(t: TableNames): string[] {
  return [createTableSql(savedViewsTable, t.savedViews), createTableSql(alertDeliveriesTable, t.alertDeliveries)]
}

/** Append-only copy of every working-memory insert, complete from the moment it is installed. */
export function historyDdl(t: TableNames, retentionDays = HISTORY_RETENTION_DAYS): string[] {
  return [
    createTableSql(workingMemoryHistoryTable, t.history, { ttl: historyTtl(retentionDays) }),
    `CREATE MATERIALIZED VIEW IF NOT EXISTS ${t.historyView} TO ${t.history} AS
SELECT ${columnNames(workingMemoryTable).join(', ')}
FROM ${source(t.workingMemory)}`,
  ]
}
