/**
 * Installing, upgrading and removing the derived structures. An install that finds the current
 * marker does nothing. Otherwise it drops what an earlier design or an unfinished install left
 * (the materialized views first, so no agent insert fires one meanwhile; only the console's own
 * objects, never Loom's), creates the tables, derives every run once from the captured history
 * and Loom's tables, logs that batch (its watermarks are where the next batch reads on from), and
 * creates the marker last: readers use the derived tables only once it exists.
 */
import { z } from 'zod'
import { selectRows, runCommand } from '../clickhouse/query'
import { param, sql, trusted } from '../clickhouse/sql'
import { getConfig } from '../config'
import { tableNames } from '../loom/tables'
import { existingTables as freshTables } from '../loom/install-steps'
import { forgetExistingTables } from '../clickhouse/schema-presence'
import { forCluster } from './cluster'
import { derivedMetaDdl, derivedTables } from './ddl'
import { DERIVED_SCHEMA_VERSION, deriveNames, legacyObjects, runIndexNames } from './names'
import { exec, STEP, watermarks } from './derive'
import {
  deriveStatements,
  rollupStage,
  rollupStateInsert,
  rollupSumsInsert,
  rollupTopInsert,
  sessionsInsert,
  type DeriveContext,
  type DeriveScope,
} from './statements'

export type DerivedInstallReport = { created: string[]; dropped: string[]; derived: boolean; elapsedMs: number }

/** What an install would run, in order: drops (of objects there now), creates, then the first derivation. */
export type InstallPlan = { drop: string[]; create: { name: string; sql: string; what: string }[] }

function clusterName(): string | undefined {
  return getConfig().cluster
}

/** The drops and creates an install needs, given the objects there now. */
export function installPlan(before: Set<string>): InstallPlan {
  const db = getConfig().databases.runs
  const legacy = legacyObjects(db)
  const tables = derivedTables(db)
  // Without the current marker, tables of this design are from an unfinished install: rebuilt.
  const drop = [...legacy.views, ...legacy.tables, ...tables.map((t) => t.name), runIndexNames(db).meta].filter((n) =>
    before.has(n),
  )
  return { drop, create: [...tables, derivedMetaDdl(db)] }
}

/** Every object of the console's in its database and Loom's, views first: what `db:uninstall` drops. */
export function uninstallPlan(before: Set<string>): string[] {
  const { databases } = getConfig()
  const t = tableNames(databases)
  const legacy = legacyObjects(databases.runs)
  const ours = [
    t.historyView,
    ...legacy.views,
    runIndexNames(databases.runs).meta,
    ...derivedTables(databases.runs).map((o) => o.name),
    ...legacy.tables,
    t.history,
    t.audit,
    t.revokedSessions,
    t.batches,
    t.setupLog,
    t.savedViews,
    t.alertDeliveries,
  ]
  return ours.filter((n) => before.has(n))
}

export const dropStatement = (name: string) => forCluster(`DROP TABLE IF EXISTS ${name}`, clusterName())

/** The first derivation's statements (every run), for a dry run's listing. */
export function firstDerivation(ctx: DeriveContext): { name: string; sql: string }[] {
  const scope: DeriveScope = { all: true, seq: 1 }
  return [
    { name: 'sessions', sql: sessionsInsert(ctx, null).sql },
    ...deriveStatements(ctx, scope).map((s) => ({ name: s.name, sql: s.sql.sql })),
    { name: 'rollup changes', sql: rollupStage(ctx, scope).sql },
    { name: 'rollup sums', sql: rollupSumsInsert(ctx, scope).sql },
    { name: 'rollup state', sql: rollupStateInsert(ctx, scope).sql },
    { name: 'rollup top', sql: rollupTopInsert(ctx, scope).sql },
  ]
}

/** Whether the history capture is there, and whether it holds rows (an empty one, installed after a bulk load, adds nothing to read). */
async function historyState(): Promise<{ installed: boolean; rows: boolean }> {
  const { databases } = getConfig()
  const t = tableNames(databases)
  const now = await freshTables([databases.runs])
  if (!now.has(t.history) || !now.has(t.historyView)) return { installed: false, rows: false }
  const [row] = await selectRows(
    sql`SELECT count() > 0 AS any FROM ${trusted(t.history)}`,
    z.object({ any: z.coerce.number() }),
  )
  return { installed: true, rows: row?.any === 1 }
}

/**
 * Installs (or upgrades to) the current derived structures unless they are complete already.
 * `rebuild`: derive everything again even when they are.
 */
export async function installDerived(
  options: { onStep?: (step: string) => void; rebuild?: boolean } = {},
): Promise<DerivedInstallReport> {
  const started = Date.now()
  const { databases } = getConfig()
  const db = databases.runs
  const meta = runIndexNames(db).meta
  let before = await freshTables([db])
  if (before.has(meta) && !options.rebuild) return { created: [], dropped: [], derived: false, elapsedMs: 0 }
  if (options.rebuild) before = new Set([...before].filter((n) => n !== meta))
  await runCommand(trusted(forCluster(`CREATE DATABASE IF NOT EXISTS ${db}`, clusterName())))
  const plan = installPlan(options.rebuild ? new Set([...before, meta]) : before)
  for (const name of plan.drop) {
    options.onStep?.(`drop ${name}`)
    await runCommand(trusted(dropStatement(name)))
  }
  const created: string[] = []
  const tables = plan.create.filter((o) => o.name !== meta)
  for (const o of tables) {
    options.onStep?.(`create ${o.name}`)
    await runCommand(trusted(forCluster(o.sql, clusterName())))
    created.push(o.name)
  }
  const history = await historyState()
  const ctx: DeriveContext = { t: tableNames(databases), runsDatabase: db, history: history.rows }
  options.onStep?.(
    `derive every run from ${ctx.history ? `${ctx.t.history} and ${ctx.t.workingMemory}` : ctx.t.workingMemory} and ${ctx.t.runs}`,
  )
  // The watermarks first, of the tables later batches read: whatever is written from here on is theirs.
  const marks = await watermarks({ ...ctx, history: history.installed })
  const scope: DeriveScope = { all: true, seq: 1 }
  await exec(sessionsInsert(ctx, null))
  for (const s of deriveStatements(ctx, scope)) await exec(s.sql)
  await exec(rollupStage(ctx, scope))
  await exec(rollupSumsInsert(ctx, scope), { insert_deduplication_token: `loom-runs-derive-install-${Date.now()}` })
  await exec(rollupStateInsert(ctx, scope))
  await exec(rollupTopInsert(ctx, scope))
  const d = { seq: 1, hf: 0, ht: marks.history, rf: 0, rt: marks.runs }
  await exec(
    sql`INSERT INTO ${trusted(deriveNames(db).log)} (seq, step, history_from, history_to, runs_from, runs_to, runs_count, at, elapsed_ms)
     VALUES (${param('seq', 'UInt64', d.seq)}, ${param('step', 'UInt8', STEP.done)}, 0, ${param('ht', 'UInt64', d.ht)}, 0,
       ${param('rt', 'UInt64', d.rt)}, 0, now64(3), ${param('ms', 'UInt64', Date.now() - started)})`,
  )
  // Merged once, the per-run tables read one row per run.
  for (const name of [runIndexNames(db).flags, runIndexNames(db).owners, runIndexNames(db).triage])
    await exec(trusted(`OPTIMIZE TABLE ${name} FINAL`))
  options.onStep?.(`create ${meta}`)
  await runCommand(trusted(forCluster(derivedMetaDdl(db).sql, clusterName())))
  await runCommand(
    sql`INSERT INTO ${trusted(meta)} (installed_at, schema_version, note)
     VALUES (now64(3), ${param('v', 'UInt32', DERIVED_SCHEMA_VERSION)}, ${param('note', 'String', `derived in ${Date.now() - started} ms`)})`,
  )
  created.push(meta)
  forgetExistingTables()
  return { created, dropped: plan.drop, derived: true, elapsedMs: Date.now() - started }
}

/** Removes every object of the console's (views first). Loom's tables are never touched. */
export async function uninstallConsole(options: { onStep?: (step: string) => void } = {}): Promise<string[]> {
  const { databases } = getConfig()
  const before = await freshTables([databases.runs, databases.loom])
  const drops = uninstallPlan(before)
  for (const name of drops) {
    options.onStep?.(`drop ${name}`)
    await runCommand(trusted(dropStatement(name)))
  }
  forgetExistingTables()
  return drops
}

/** How many runs the derived tables hold now (for reports). */
export async function derivedRunCount(): Promise<number> {
  const [row] = await selectRows(
    sql`SELECT uniqExact(org, namespace, agent, run_id) AS n FROM ${trusted(runIndexNames(getConfig().databases.runs).flags)}`,
    z.object({ n: z.coerce.number() }),
  )
  return row?.n ?? 0
}
