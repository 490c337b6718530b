import type { z } from 'zod'
import { selectRows } from '../clickhouse/query'
import { sql, trusted, type Sql } from '../clickhouse/sql'
import { source } from './tables'

/** The row `FINAL` returns for the key `where` selects in `table` (its highest version), or null. */
export async function latestRow<S extends z.ZodType>(
  table: string,
  columns: string,
  where: Sql,
  schema: S,
  signal?: AbortSignal,
): Promise<z.infer<S> | null> {
  const rows = await selectRows(
    sql`SELECT ${trusted(columns)} FROM ${trusted(source(table, { final: true }))} WHERE ${where} LIMIT 1`,
    schema,
    { signal },
  )
  return rows[0] ?? null
}
