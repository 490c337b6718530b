import { getConfig } from '../config'
import { runCommand } from '../clickhouse/query'
import { sql, trusted } from '../clickhouse/sql'
import {
  auditTableDdl,
  auditTableUpgrades,
  batchesDdl,
  savedViewsDdl,
  setupLogDdl,
  historyDdl,
  revokedSessionsDdl,
  loomTableDdl,
} from '../loom/ddl'
import { forCluster } from '../derived/cluster'
import { derivedTables } from '../derived/ddl'
import { installDerived } from '../derived/install'
import { existingTables } from '../loom/install-steps'
import { loomTableList, tableNames } from '../loom/tables'
import type { TableNames } from '../tables/table-keys'

export type SchemaInitReport = { created: string[]; existing: string[]; loomWasEmpty: boolean; upgraded: string[] }

/** The dashboard's own tables (audit log first), each with its CREATE statement for `cluster`. */
export function dashboardTableDdl(t: TableNames, cluster: string | undefined): { table: string; sql: string }[] {
  return [
    { table: t.audit, sql: forCluster(auditTableDdl(t), cluster) },
    { table: t.revokedSessions, sql: forCluster(revokedSessionsDdl(t), cluster) },
    { table: t.batches, sql: forCluster(batchesDdl(t), cluster) },
    { table: t.setupLog, sql: forCluster(setupLogDdl(t), cluster) },
    { table: t.savedViews, sql: forCluster(savedViewsDdl(t)[0], cluster) },
    { table: t.alertDeliveries, sql: forCluster(savedViewsDdl(t)[1], cluster) },
  ]
}

/**
 * Creates what is missing: Loom's tables, the audit and session tables and (optionally) the history capture.
 * Existing tables are left as they are (no DROP, and no ALTER of Loom's tables); the one exception is
 * the dashboard's own audit table, which gains the columns later releases added (`upgraded`).
 */
export async function createMissingSchema(options: {
  history: boolean
  runIndex?: boolean
}): Promise<SchemaInitReport> {
  const { databases } = getConfig()
  const t = tableNames(databases)
  const before = await existingTables([databases.loom, databases.telemetry, databases.runs])
  const loomWasEmpty = ![...before].some((name) => name.startsWith(`${databases.loom}.`))
  // A mapped table may live in a database of its own.
  const mappedDatabases = loomTableList(t).map((n) => n.split('.')[0])
  for (const db of new Set([databases.loom, databases.telemetry, databases.runs, ...mappedDatabases])) {
    await runCommand(sql`CREATE DATABASE IF NOT EXISTS ${trusted(db)}`)
  }
  const cluster = getConfig().cluster
  const statements: { table: string; sql: string }[] = [...loomTableDdl(t), ...dashboardTableDdl(t, cluster)]
  if (options.history) {
    const [table, view] = historyDdl(t)
    statements.push(
      { table: t.history, sql: forCluster(table, cluster) },
      { table: t.historyView, sql: forCluster(view, cluster) },
    )
  }
  const created: string[] = []
  const existing: string[] = []
  for (const s of statements) {
    if (before.has(s.table)) {
      existing.push(s.table)
      continue
    }
    await runCommand(trusted(s.sql))
    created.push(s.table)
  }
  const upgraded: string[] = []
  if (before.has(t.audit)) {
    for (const upgrade of auditTableUpgrades(t)) await runCommand(trusted(upgrade))
    upgraded.push(t.audit)
  }
  if (options.runIndex) {
    const index = await installRunIndex()
    created.push(...index.created)
    existing.push(...index.existing)
  }
  return { created, existing, loomWasEmpty, upgraded }
}

export type RunIndexInstallReport = {
  created: string[]
  existing: string[]
  dropped: string[]
  backfilled: boolean
  elapsedMs: number
}

/**
 * Installs the derived structures (run index, triage, facets, analytics rollup: lib/derived/)
 * unless the current version is complete, deriving every run once. Safe to re-run.
 */
export async function installRunIndex(
  options: { onStep?: (step: string) => void; rebuild?: boolean } = {},
): Promise<RunIndexInstallReport> {
  const report = await installDerived(options)
  const existing = report.derived ? [] : derivedTables(getConfig().databases.runs).map((o) => o.name)
  return {
    created: report.created,
    existing,
    dropped: report.dropped,
    backfilled: report.derived,
    elapsedMs: report.elapsedMs,
  }
}
