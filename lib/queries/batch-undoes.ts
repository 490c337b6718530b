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

/**
 * What an audit row says of its batch, as the API names it: the batch's id, the version a restore
 * put back, and the batch it takes back (from `undoneBatches`). Empty late columns read as null.
 */
export function auditBatchFields(
  r: { action: string; batch_id: string; restored_version: string },
  undoes: Map<string, string>,
): { batchId: string | null; restoredVersion: string | null; undoes: string | null } {
  return {
    batchId: r.batch_id === '' ? null : r.batch_id,
    restoredVersion: r.action === 'restore' && r.restored_version !== '' ? r.restored_version : null,
    undoes: undoes.get(r.batch_id) ?? null,
  }
}
