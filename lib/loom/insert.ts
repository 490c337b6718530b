import { insertJsonEachRow } from '../clickhouse/query'
import { physicalRows } from './tables'

/** Inserts rows into one of the console's or Loom's tables (`tableNames()`). */
export async function insertRows(table: string, values: Record<string, unknown>[]): Promise<void> {
  if (values.length === 0) return
  // Rows use the contract's column names; a mapped Loom table gets its physical ones.
  await insertJsonEachRow(table, values, physicalRows(table, values))
}
