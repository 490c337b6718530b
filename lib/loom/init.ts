import { getConfig } from '../config'
import { runCommand } from '../clickhouse/query'
import { param, sql, trusted } from '../clickhouse/sql'
import { auditTableDdl, auditTableUpgrades, historyDdl, revokedSessionsDdl, loomTableDdl } from './ddl'
import { RUN_INDEX_SCHEMA_VERSION, runIndexDdl, runIndexNames } from './run-index-ddl'
import { installRunFacets } from './facets-install'
import { installRunRollup } from './rollup-install'
import { existingTables, installObjects, oneOff } from './install-steps'
import { tableNames } from './tables'

export type SchemaInitReport = { created: string[]; existing: string[]; loomWasEmpty: boolean; upgraded: string[] }

/**
 * Creates what is missing: Loom's tables, the audit and session tables and (optionally) the history capture.
 * Existing tables are left as they are (no DROP, and no ALTER of Loom's tables); the one exception is
 * the dashboard's own audit table, which gains the columns later releases added (`upgraded`).
 */
export async function createMissingSchema(options: { history: boolean; runIndex?: boolean }): Promise<SchemaInitReport> {
  const { databases } = getConfig()
  const t = tableNames(databases)
  const before = await existingTables([databases.loom, databases.telemetry, databases.runs])
  const loomWasEmpty = ![...before].some((name) => name.startsWith(`${databases.loom}.`))
  // A mapped table may live in a database of its own.
  const mappedDatabases = [t.workingMemory, t.runs, t.conversations, t.turns, t.memory, t.contextBlobs, t.searchTrace].map((n) => n.split('.')[0])
  for (const db of new Set([databases.loom, databases.telemetry, databases.runs, ...mappedDatabases])) {
    await runCommand(sql`CREATE DATABASE IF NOT EXISTS ${trusted(db)}`)
  }
  const statements: { table: string; sql: string }[] = [
    ...loomTableDdl(t),
    { table: t.audit, sql: auditTableDdl(t) },
    { table: t.revokedSessions, sql: revokedSessionsDdl(t) },
  ]
  if (options.history) {
    const [table, view] = historyDdl(t)
    statements.push({ table: t.history, sql: table }, { table: t.historyView, sql: view })
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

/** The structures built next to the run index, each behind its own marker: facets, then the rollup (whose backfill reads the index). */
async function installAfterIndex(onStep?: (step: string) => void) {
  const facets = await installRunFacets({ onStep })
  const rollup = await installRunRollup({ onStep })
  return {
    created: [...facets.created, ...rollup.created],
    dropped: [...facets.dropped, ...rollup.dropped],
    backfilled: facets.backfilled || rollup.backfilled,
  }
}

export type RunIndexInstallReport = { created: string[]; existing: string[]; dropped: string[]; backfilled: boolean; elapsedMs: number }

/**
 * Installs the run index (tables, materialized views, backfill from the existing rows) unless the
 * current version is complete already. Its meta table is created last: readers use the index only
 * once it exists, so an install that is still backfilling, or failed half-way, is never read.
 * Anything an earlier version or an unfinished install left (the dashboard's own index objects,
 * never Loom's tables) is dropped and rebuilt. Safe to re-run.
 */
export async function installRunIndex(options: { onStep?: (step: string) => void } = {}): Promise<RunIndexInstallReport> {
  const started = Date.now()
  const { databases } = getConfig()
  const ix = runIndexNames(databases.runs)
  const ddl = runIndexDdl(tableNames(databases), ix)
  const before = await existingTables([databases.runs])
  if (before.has(ix.meta)) {
    // The facets (type-ahead counts) and the rollup (analytics totals) install on their own markers:
    // an index of this version may predate them.
    const extra = await installAfterIndex(options.onStep)
    return { created: extra.created, existing: [...ddl.objects.map((s) => s.name), ix.meta], dropped: extra.dropped, backfilled: extra.backfilled, elapsedMs: Date.now() - started }
  }
  await runCommand(sql`CREATE DATABASE IF NOT EXISTS ${trusted(databases.runs)}`)
  const { created, dropped } = await installObjects({ before, drop: ddl.drop, objects: ddl.objects, backfill: ddl.backfill, onStep: options.onStep })
  // The triage tables take one row per source (run rows, working-memory rows) until merged; merging
  // once after the backfill halves what a flag filter reads.
  for (const table of [ix.flags, ix.owners]) {
    options.onStep?.(`merge ${table}`)
    await oneOff(`OPTIMIZE TABLE ${table} FINAL`)
  }
  await runCommand(trusted(ddl.meta))
  await runCommand(
    sql`INSERT INTO ${trusted(ix.meta)} (installed_at, schema_version, note)
     VALUES (now64(3), ${param('v', 'UInt32', RUN_INDEX_SCHEMA_VERSION)}, ${param('note', 'String', `backfilled in ${Date.now() - started} ms`)})`,
  )
  created.push(ix.meta)
  const extra = await installAfterIndex(options.onStep)
  created.push(...extra.created)
  dropped.push(...extra.dropped)
  return { created, existing: [], dropped, backfilled: true, elapsedMs: Date.now() - started }
}
