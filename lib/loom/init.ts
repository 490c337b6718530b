import { z } from 'zod'
import { getConfig } from '../config'
import { command, queryRows } from '../clickhouse/query'
import { auditTableDdl, historyDdl, loomTableDdl } from './ddl'
import { tableNames } from './tables'

export type SchemaInitReport = { created: string[]; existing: string[]; loomWasEmpty: boolean }

async function existingTables(databases: string[]): Promise<Set<string>> {
  const rows = await queryRows(
    'SELECT database, name FROM system.tables WHERE database IN {dbs:Array(String)}',
    { dbs: databases },
    z.object({ database: z.string(), name: z.string() }),
  )
  return new Set(rows.map((r) => `${r.database}.${r.name}`))
}

/**
 * Creates what is missing: Loom's tables, the audit table and (optionally) the history capture.
 * Existing tables are left exactly as they are: no ALTER, no DROP.
 */
export async function createMissingSchema(options: { history: boolean }): Promise<SchemaInitReport> {
  const { databases } = getConfig()
  const t = tableNames(databases)
  const before = await existingTables([databases.loom, databases.telemetry, databases.runs])
  const loomWasEmpty = ![...before].some((name) => name.startsWith(`${databases.loom}.`))
  for (const db of [databases.loom, databases.telemetry, databases.runs]) {
    await command(`CREATE DATABASE IF NOT EXISTS ${db}`)
  }
  const statements: { table: string; sql: string }[] = [
    ...loomTableDdl(t),
    { table: t.audit, sql: auditTableDdl(t) },
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
    await command(s.sql)
    created.push(s.table)
  }
  return { created, existing, loomWasEmpty }
}
