import { z } from 'zod'
import { selectRows } from '../../lib/clickhouse/query'
import { sql, trusted, type Sql } from '../../lib/clickhouse/sql'
import type { BlockRef } from '../../lib/loom/identity'
import { blockScope } from '../../lib/loom/scope'
import { tableNames } from '../../lib/loom/tables'

const historyRow = z.object({
  version: z.string(),
  content: z.string(),
  is_deleted: z.coerce.number(),
  char_limit: z.coerce.number(),
  actor: z.string(),
  source_trace: z.string(),
  /** As ClickHouse prints it: `YYYY-MM-DD hh:mm:ss.sss`, UTC. */
  updated_at: z.string(),
})

/** Every version ever written to a block, oldest first, from the append-only history capture (merges cannot hide any). */
export async function blockHistory(ref: BlockRef) {
  return selectRows(
    sql`SELECT version, content, is_deleted, char_limit, actor, source_trace, toString(updated_at) AS updated_at
      FROM ${trusted(tableNames().history)} WHERE ${blockScope(ref)} ORDER BY version`,
    historyRow,
  )
}

/** How many working-memory rows the history capture holds under a condition. */
export async function historyCount(where: Sql): Promise<number> {
  const [row] = await selectRows(
    sql`SELECT count() AS n FROM ${trusted(tableNames().history)} WHERE ${where}`,
    z.object({ n: z.coerce.number() }),
  )
  return row.n
}
