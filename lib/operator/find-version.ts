import { selectRows } from '../clickhouse/query'
import { param, sql, trusted } from '../clickhouse/sql'
import type { BlockRef } from '../loom/identity'
import { blockScope } from '../loom/scope'
import { source, tableNames } from '../loom/tables'
import { WM_COLUMNS, wmRowSchema, type WmRow } from '../tables/working-memory'
import { tableExists } from '../clickhouse/schema-presence'

/**
 * A version's row from the captured history or, failing that, the physical rows: merges may
 * already have collapsed an old version out of the working-memory table.
 */
export async function findVersion(ref: BlockRef, version: string): Promise<WmRow | null> {
  const t = tableNames()
  const sources = (await tableExists(t.history)) ? [t.history, t.workingMemory] : [t.workingMemory]
  for (const table of sources) {
    const rows = await selectRows(
      sql`SELECT ${trusted(WM_COLUMNS)} FROM ${trusted(source(table))}
        WHERE ${blockScope(ref)} AND version = ${param('version', 'UInt64', version)}
        ORDER BY updated_at DESC LIMIT 1`,
      wmRowSchema,
    )
    if (rows[0]) return rows[0]
  }
  return null
}
