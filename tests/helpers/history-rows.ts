import { z } from 'zod'
import type { Sql } from '../../lib/clickhouse/sql'
import type { BlockRef } from '../../lib/loom/identity'

// The library is imported on first use, after the test file has pointed the configuration at its engine.

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
  const { selectRows } = await import('../../lib/clickhouse/query')
  const { sql, trusted } = await import('../../lib/clickhouse/sql')
  const { blockScope } = await import('../../lib/loom/scope')
  const { tableNames } = await import('../../lib/loom/tables')
  return selectRows(
    sql`SELECT version, content, is_deleted, char_limit, actor, source_trace, toString(updated_at) AS updated_at
      FROM ${trusted(tableNames().history)} WHERE ${blockScope(ref)} ORDER BY version`,
    historyRow,
  )
}

/** How many working-memory rows the history capture holds under a condition. */
export async function historyCount(where: Sql): Promise<number> {
  const { selectRows } = await import('../../lib/clickhouse/query')
  const { sql, trusted } = await import('../../lib/clickhouse/sql')
  const { tableNames } = await import('../../lib/loom/tables')
  const [row] = await selectRows(
    sql`SELECT count() AS n FROM ${trusted(tableNames().history)} WHERE ${where}`,
    z.object({ n: z.coerce.number() }),
  )
  return row.n
}
