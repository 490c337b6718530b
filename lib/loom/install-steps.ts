import { z } from 'zod'
import { selectRows } from '../clickhouse/query'
import { param, sql } from '../clickhouse/sql'

/** Every table and view of these databases, as `database.name` (read fresh: installs change them). */
export async function existingTables(databases: string[]): Promise<Set<string>> {
  const rows = await selectRows(
    sql`SELECT database, name FROM system.tables WHERE database IN ${param('dbs', 'Array(String)', databases)}`,
    z.object({ database: z.string(), name: z.string() }),
  )
  return new Set(rows.map((r) => `${r.database}.${r.name}`))
}
