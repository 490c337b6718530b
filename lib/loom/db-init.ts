/**
 * The one init command for a ClickHouse the console did not create itself (`npm run db:init`):
 * Loom's missing tables, the dashboard's own tables, the history capture and the run index.
 * Each part says what it creates and which grants it needs before it runs; a dry run stops there.
 */
import { getConfig } from '../config'
import { auditTableDdl, auditTableUpgrades, historyDdl, loomTableDdl, revokedSessionsDdl } from './ddl'
import { runIndexDdl, runIndexNames } from './run-index-ddl'
import { createMissingSchema, installRunIndex } from './init'
import { tableNames } from './tables'

export type DbInitOptions = {
  history: boolean
  runIndex: boolean
  dryRun: boolean
  /** Print the SQL of each statement too (always on for a dry run). */
  showSql?: boolean
  log: (line: string) => void
}

export type DbInitReport = {
  created: string[]
  existing: string[]
  /** null when skipped, or for a dry run. */
  runIndex: { backfilled: boolean; elapsedMs: number } | null
}

export function targetText(): string {
  const config = getConfig()
  return config.mode === 'remote' ? new URL(config.clickhouse.url!).host : `embedded engine at ${config.dataDir}`
}

/** What the base schema is and needs (Loom's tables, the audit log, stored logouts). */
export function describeBaseSchema(log: (line: string) => void, showSql: boolean) {
  const { databases } = getConfig()
  const t = tableNames(databases)
  log('Loom tables and the dashboard tables (created only where missing; existing tables are never dropped, and Loom\'s are never altered):')
  for (const s of loomTableDdl(t)) log(`  - ${s.table}`)
  log(`  - ${t.audit}: one row per console edit, clear or restore (an existing one gains the batch_id column if it lacks it)`)
  log(`  - ${t.revokedSessions}: logouts, so an ended session stays refused after a restart`)
  log(`  Needs: CREATE DATABASE (or the databases ${Object.values(databases).join(', ')} made beforehand), CREATE TABLE on them.`)
  if (!showSql) return
  log('')
  for (const db of Object.values(databases)) log(`CREATE DATABASE IF NOT EXISTS ${db};`)
  for (const s of loomTableDdl(t)) log(`${s.sql};\n`)
  log(`${auditTableDdl(t)};\n`)
  for (const sql of auditTableUpgrades(t)) log(`${sql};\n`)
  log(`${revokedSessionsDdl(t)};\n`)
}

/** What the history capture is and needs. */
export function describeHistory(log: (line: string) => void, showSql: boolean, retentionDays = 90) {
  const t = tableNames()
  log('History capture:')
  log(`  - table ${t.history}: MergeTree, one row per working-memory write, kept ${retentionDays} days (TTL)`)
  log(`  - materialized view ${t.historyView}: copies each new row of ${t.workingMemory} into it`)
  log(`  Needs: CREATE TABLE and CREATE VIEW on ${getConfig().databases.runs}, SELECT on ${t.workingMemory}.`)
  log('  History is complete from the moment it is installed; versions that merges already collapsed are not recovered.')
  if (!showSql) return
  log('')
  for (const s of historyDdl(t, retentionDays)) log(`${s};\n`)
}

/** What the run index is and needs. */
export function describeRunIndex(log: (line: string) => void, showSql: boolean) {
  const { databases } = getConfig()
  const t = tableNames(databases)
  const ix = runIndexNames(databases.runs)
  const ddl = runIndexDdl(t, ix)
  log('Run index: the runs list reads a few granules per page instead of grouping')
  log(`every working-memory row on each request. In database ${databases.runs}:`)
  for (const s of ddl.objects) log(`  - ${s.name}: ${s.what}`)
  log(`  - ${ix.meta}: marks the index as complete (the dashboard reads the index only once it exists)`)
  log(`  Then it backfills ${ix.runs}, ${ix.orphans}, ${ix.checkpoints} and ${ix.sessions} from ${t.runs} and ${t.workingMemory} (one scan each).`)
  log(`  An earlier version of the index (or an unfinished install) is dropped first and rebuilt: ${ddl.drop.join(', ')}.`)
  log(`  Needs: CREATE TABLE, CREATE VIEW, DROP TABLE, DROP VIEW, SELECT and INSERT on ${databases.runs}; SELECT on ${t.runs} and ${t.workingMemory}.`)
  log(`  Writes to ${t.runs} and ${t.workingMemory} then also feed the views: each working-memory insert looks up its runs' keys in ${t.runs}.`)
  log(`  To remove it: DROP TABLE each of ${ddl.drop.join(', ')} (views first, as listed).`)
  if (!showSql) return
  log('')
  for (const s of ddl.objects) log(`${s.sql};\n`)
  for (const b of ddl.backfill) log(`${b.sql};\n`)
  log(`${ddl.meta};\n`)
}

export async function runDbInit(options: DbInitOptions): Promise<DbInitReport> {
  const { log, dryRun } = options
  const showSql = dryRun || !!options.showSql
  log(`Target: ${targetText()}${dryRun ? ' (dry run: nothing is changed)' : ''}\n`)
  describeBaseSchema(log, showSql)
  log('')
  if (options.history) describeHistory(log, showSql)
  if (options.history) log('  (skip with --no-history)')
  else log('History capture: skipped (--no-history). Install it later with `npm run history:install`.')
  log('')
  if (options.runIndex) describeRunIndex(log, showSql)
  if (options.runIndex) log('  (skip with --no-index)')
  else log('Run index: skipped (--no-index). Install it later with `npm run index:install`.')
  log('')
  if (dryRun) return { created: [], existing: [], runIndex: null }

  const base = await createMissingSchema({ history: options.history })
  for (const name of base.created) log(`created  ${name}`)
  for (const name of base.existing) {
    log(base.upgraded.includes(name) ? `kept     ${name} (already there; columns added since its first release are ensured)` : `kept     ${name} (already there, not changed)`)
  }
  let runIndex: DbInitReport['runIndex'] = null
  const created = [...base.created]
  const existing = [...base.existing]
  if (options.runIndex) {
    const ix = await installRunIndex({ onStep: (s) => log(`… ${s}`) })
    created.push(...ix.created)
    existing.push(...ix.existing)
    runIndex = { backfilled: ix.backfilled, elapsedMs: ix.elapsedMs }
    if (ix.backfilled) log(`run index installed and backfilled in ${(ix.elapsedMs / 1000).toFixed(1)}s`)
    else log('kept     the run index (already installed, not changed)')
  }
  log(created.length ? `Done: ${created.length} created. Nothing was altered or dropped outside the run index's own objects.` : 'Nothing to do: everything was already there.')
  return { created, existing, runIndex }
}
