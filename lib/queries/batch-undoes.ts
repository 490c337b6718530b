import { z } from 'zod'
import { selectRows } from '../clickhouse/query'
import { param, sql, trusted } from '../clickhouse/sql'
import { tableNames } from '../loom/tables'
import { tableExists } from '../clickhouse/schema-presence'

/**
 * For the batch ids of some audit rows, the batch each one undoes (only the undos are returned):
 * the audit names an undo together with the batch it took back. One key lookup per id, batched.
 */
export async function undoneBatches(
  batchIds: readonly (string | null)[],
  signal?: AbortSignal,
): Promise<Map<string, string>> {
  const ids = [...new Set(batchIds.filter((b): b is string => !!b))]
  if (ids.length === 0 || !(await tableExists(tableNames().batches, signal))) return new Map()
  const rows = await selectRows(
    sql`SELECT batch_id, any(undoes) AS took_back FROM ${trusted(tableNames().batches)}
      WHERE batch_id IN ${param('ids', 'Array(String)', ids)} AND undoes != '' GROUP BY batch_id`,
    z.object({ batch_id: z.string(), took_back: z.string() }),
    { signal },
  )
  return new Map(rows.map((r) => [r.batch_id, r.took_back]))
}
