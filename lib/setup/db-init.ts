/**
 * The one init command for a ClickHouse the console did not create itself (`npm run db:init`):
 * Loom's missing tables, the dashboard's own tables, the history capture and the run index.
 * Each part says what it creates and which grants it needs before it runs; a dry run stops there.
 */
import { getConfig } from '../config'
import { auditTableUpgrades, historyDdl, loomTableDdl } from '../loom/ddl'
import { dropStatement, firstDerivation, installPlan } from '../derived/install'
import { forCluster } from '../derived/cluster'
import { createMissingSchema, dashboardTableDdl, installRunIndex } from './init'
import { existingTables } from '../loom/install-steps'
import { recordSetup } from '../loom/setup-log'
import { tableNames } from '../loom/tables'

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
  log(
    "Loom tables and the dashboard tables (created only where missing; existing tables are never dropped, and Loom's are never altered):",
  )
  for (const s of loomTableDdl(t)) log(`  - ${s.table}`)
  log(
    `  - ${t.audit}: one row per console edit, clear or restore (an existing one gains the batch_id column if it lacks it)`,
  )
  log(`  - ${t.revokedSessions}: logouts, so an ended session stays refused after a restart`)
  log(`  - ${t.batches}: every batch and undo, with its items, so a batch can be taken back`)
  log(`  - ${t.setupLog}: each setup run and what it changed (shown as "setup" events)`)
  log(`  - ${t.savedViews}, ${t.alertDeliveries}: saved views of the runs list, their alerts and deliveries`)
  log(
    `  Needs: CREATE DATABASE (or the databases ${Object.values(databases).join(', ')} made beforehand), CREATE TABLE on them.`,
  )
  if (!showSql) return
  log('')
  const cluster = getConfig().cluster
  for (const db of Object.values(databases))
    log(`${forCluster(`CREATE DATABASE IF NOT EXISTS ${db}`, db === databases.runs ? cluster : undefined)};`)
  for (const s of loomTableDdl(t)) log(`${s.sql};\n`)
  const [audit, ...others] = dashboardTableDdl(t, cluster)
  log(`${audit.sql};\n`)
  for (const sql of auditTableUpgrades(t)) log(`${sql};\n`)
  for (const s of others) log(`${s.sql};\n`)
}

/** What the history capture is and needs. */
export function describeHistory(log: (line: string) => void, showSql: boolean, retentionDays = 90) {
  const t = tableNames()
  log("History capture (the one object of the console on an agent's insert path):")
  log(`  - table ${t.history}: MergeTree, one row per working-memory write, kept ${retentionDays} days (TTL)`)
  log(
    `  - materialized view ${t.historyView}: copies each new row of ${t.workingMemory} into it, as written (about as much work as the insert itself)`,
  )
  log(`  Needs: CREATE TABLE and CREATE VIEW on ${getConfig().databases.runs}, SELECT on ${t.workingMemory}.`)
  log(
    '  History is complete from the moment it is installed; versions that merges already collapsed are not recovered.',
  )
  if (!showSql) return
  log('')
  for (const s of historyDdl(t, retentionDays)) log(`${forCluster(s, getConfig().cluster)};\n`)
}

/** What the derived structures are, cost and need; with `showSql`, every statement an install would run given `before`. */
export function describeRunIndex(log: (line: string) => void, showSql: boolean, before: Set<string> = new Set()) {
  const { databases } = getConfig()
  const t = tableNames(databases)
  const db = databases.runs
  const plan = installPlan(before)
  log('Derived tables: the runs list, triage flags, filter suggestions and analytics read these instead of')
  log(`grouping every working-memory row on each request. In database ${db}, plain tables (no view on any Loom table):`)
  for (const s of plan.create) log(`  - ${s.name}: ${s.what}`)
  log(
    `  They are filled in batches by the console (every ${getConfig().deriveIntervalMs} ms, and at once after its own writes), from`,
  )
  log(
    `  ${t.history} and ${t.runs}: an agent's INSERT sets off nothing of these. Derived data trails the writes by about that interval.`,
  )
  if (plan.drop.length)
    log(
      `  First dropped (left by an earlier version or an unfinished install; all the console's own): ${plan.drop.join(', ')}.`,
    )
  log(
    `  Needs: CREATE TABLE, DROP TABLE, SELECT and INSERT on ${db}; SELECT on ${t.runs}, ${t.workingMemory} and system.parts.`,
  )
  log('  To remove every object of the console: npm run db:uninstall (--dry-run lists them).')
  if (!showSql) return
  log('')
  const cluster = getConfig().cluster
  for (const name of plan.drop) log(`${dropStatement(name)};\n`)
  for (const s of plan.create.slice(0, -1)) log(`${forCluster(s.sql, cluster)};\n`)
  const ctx = { t, runsDatabase: db, history: true }
  log('-- the first derivation (every run), then a log row with the watermarks it read:')
  for (const s of firstDerivation(ctx)) log(`${s.sql};\n`)
  log(`${forCluster(plan.create[plan.create.length - 1].sql, cluster)};\n`)
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
  if (options.runIndex)
    describeRunIndex(log, showSql, await existingTables([getConfig().databases.runs]).catch(() => new Set<string>()))
  if (options.runIndex) log('  (skip with --no-index)')
  else log('Run index: skipped (--no-index). Install it later with `npm run index:install`.')
  log('')
  if (dryRun) return { created: [], existing: [], runIndex: null }

  const base = await createMissingSchema({ history: options.history })
  for (const name of base.created) log(`created  ${name}`)
  for (const name of base.existing) {
    log(
      base.upgraded.includes(name)
        ? `kept     ${name} (already there; columns added since its first release are ensured)`
        : `kept     ${name} (already there, not changed)`,
    )
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
  const done = created.length
    ? `Done: ${created.length} created. Nothing was altered or dropped outside the run index's own objects.`
    : 'Nothing to do: everything was already there.'
  log(done)
  const summary = created.length
    ? `created ${created.join(', ')}`
    : `nothing to create${base.upgraded.length ? `; columns ensured on ${base.upgraded.join(', ')}` : ''}`
  const unrecorded = await recordSetup('db:init', summary)
  if (unrecorded) log(`note: ${unrecorded}`)
  return { created, existing, runIndex }
}
