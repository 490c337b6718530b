import { getClient } from '../clickhouse/client'
import { z } from 'zod'
import { classifyClickHouseError, runCommand, selectRows } from '../clickhouse/query'
import { param, sql, trusted } from '../clickhouse/sql'

type Step = (step: string) => void

/** Every table and view of these databases, as `database.name` (read fresh: installs change them). */
export async function existingTables(databases: string[]): Promise<Set<string>> {
  const rows = await selectRows(
    sql`SELECT database, name FROM system.tables WHERE database IN ${param('dbs', 'Array(String)', databases)}`,
    z.object({ database: z.string(), name: z.string() }),
  )
  return new Set(rows.map((r) => `${r.database}.${r.name}`))
}

/** A one-off statement over the existing rows (backfill, merge): not bound by the time budget of reads. */
export async function oneOff(statement: string): Promise<void> {
  try {
    await getClient().command({ query: statement, clickhouse_settings: { max_execution_time: 0 } })
  } catch (err) {
    throw classifyClickHouseError(err)
  }
}

/**
 * The common steps of installing one of the dashboard's derived structures (run index, facets):
 * drop what an earlier or unfinished install left, create the tables and views, backfill them.
 * The caller creates its marker afterwards, so readers never see a half-built structure.
 */
export async function installObjects(parts: {
  before: Set<string>
  drop: string[]
  objects: { name: string; sql: string }[]
  backfill: { name: string; sql: string }[]
  onStep?: Step
}): Promise<{ created: string[]; dropped: string[] }> {
  const dropped: string[] = []
  for (const name of parts.drop) {
    if (!parts.before.has(name)) continue
    parts.onStep?.(`drop ${name} (left by an earlier version or an unfinished install)`)
    await runCommand(sql`DROP TABLE IF EXISTS ${trusted(name)}`)
    dropped.push(name)
  }
  const created: string[] = []
  for (const s of parts.objects) {
    parts.onStep?.(`create ${s.name}`)
    await runCommand(trusted(s.sql))
    created.push(s.name)
  }
  for (const b of parts.backfill) {
    parts.onStep?.(`backfill ${b.name}`)
    await oneOff(b.sql)
  }
  return { created, dropped }
}

export type MarkedInstallReport = { created: string[]; dropped: string[]; backfilled: boolean; elapsedMs: number }

/**
 * Installs a derived structure that one marker table (`meta`, created last) declares complete:
 * nothing when the marker exists; else the install steps, then the marker. Readers check the marker,
 * so an unfinished install is never read.
 */
export async function installMarked(
  meta: string,
  ddl: { objects: { name: string; sql: string }[]; backfill: { name: string; sql: string }[]; drop: string[]; meta: string },
  onStep?: Step,
): Promise<MarkedInstallReport> {
  const started = Date.now()
  const database = meta.slice(0, meta.indexOf('.'))
  const before = await existingTables([database])
  if (before.has(meta)) return { created: [], dropped: [], backfilled: false, elapsedMs: 0 }
  await runCommand(sql`CREATE DATABASE IF NOT EXISTS ${trusted(database)}`)
  const { created, dropped } = await installObjects({ before, drop: ddl.drop, objects: ddl.objects, backfill: ddl.backfill, onStep })
  await runCommand(trusted(ddl.meta))
  await runCommand(sql`INSERT INTO ${trusted(meta)} (installed_at) VALUES (now64(3))`)
  created.push(meta)
  return { created, dropped, backfilled: true, elapsedMs: Date.now() - started }
}
