/** The checkpoint block shown with each listed run, from the run index or from working memory. */
import { TupleParam } from '@clickhouse/client'
import { z } from 'zod'
import type { CheckpointSummary } from '../endpoints/runs'
import { selectRows } from '../clickhouse/query'
import { param, sql, trusted } from '../clickhouse/sql'
import { chTimeToIso } from '../tables/time'
import { rowRunKey } from '../loom/identity'
import { versionString } from '../tables/values'
import { tableNames, source } from '../loom/tables'
import { indexNames } from './run-index'
import { runFragments } from '../server/read-cache'
import { inRunKeys } from './conditions'
import { runIdentityColumns, type ListRow, type RunKeyRow } from './list-row'

const checkpointRowSchema = runIdentityColumns.extend({
  version: versionString,
  updated_at: z.string().transform(chTimeToIso),
  chars: z.coerce.number(),
  char_limit: z.coerce.number(),
  is_deleted: z.coerce.number(),
})
export type CheckpointRow = z.infer<typeof checkpointRowSchema>

/** The latest checkpoint block of each listed run, per (user_id, session_id): a key lookup in the index. */
function fromIndex(runs: RunKeyRow[], signal?: AbortSignal): Promise<CheckpointRow[]> {
  return selectRows(
    sql`SELECT org, namespace, agent, run_id, user_id, session_id, version, toString(updated_at) AS updated_at, chars, char_limit, is_deleted
     FROM ${trusted(indexNames().checkpoints)} FINAL
     WHERE ${inRunKeys('keys', runs)}`,
    checkpointRowSchema,
    { signal },
  )
}

/** The checkpoint blocks of the listed runs in working memory (one query, sorting-key prefix bound). */
function fromWorkingMemory(runs: RunKeyRow[], signal?: AbortSignal): Promise<CheckpointRow[]> {
  const keys = new Map<string, TupleParam>()
  for (const r of runs)
    keys.set(JSON.stringify([r.org, r.namespace, r.agent]), new TupleParam([r.org, r.namespace, r.agent]))
  return selectRows(
    sql`SELECT org, namespace, agent, run_id, user_id, session_id, version, toString(updated_at) AS updated_at,
        lengthUTF8(content) AS chars, char_limit, is_deleted
     FROM ${trusted(source(tableNames().workingMemory, { final: true }))}
     WHERE (org, namespace, agent) IN ${param('keys', 'Array(Tuple(String, String, String))', [...keys.values()])}
       AND run_id IN ${param('ids', 'Array(String)', [...new Set(runs.map((r) => r.run_id))])} AND block_key = 'checkpoint'`,
    checkpointRowSchema,
    { signal },
  )
}

function byRunKey(found: CheckpointRow[]): Map<string, CheckpointRow[]> {
  const byRun = new Map<string, CheckpointRow[]>()
  for (const c of found) {
    const k = rowRunKey(c)
    byRun.set(k, [...(byRun.get(k) ?? []), c])
  }
  return byRun
}

/**
 * The checkpoint blocks of each run on a page, by run key. From the index, a run's blocks are kept
 * a moment for the other pages and filters that list it (read-cache.ts).
 */
export async function checkpointsOf(
  rows: RunKeyRow[],
  indexed: boolean,
  signal?: AbortSignal,
): Promise<Map<string, CheckpointRow[]>> {
  if (rows.length === 0) return new Map()
  if (!indexed) return byRunKey(await fromWorkingMemory(rows, signal))
  const kept = runFragments<CheckpointRow[]>('checkpoints')
  if (!kept) return byRunKey(await fromIndex(rows, signal))
  return kept.many(
    rows,
    async (missing) => byRunKey(await fromIndex(missing, signal)),
    () => [],
  )
}

/** Prefers the checkpoint under the run's own identity, else the newest one. */
export function pickCheckpoint(row: ListRow, candidates: CheckpointRow[] | undefined): CheckpointSummary | null {
  if (!candidates?.length) return null
  const own = candidates.find((c) => c.user_id === row.user_id && c.session_id === row.session_id)
  const chosen = own ?? [...candidates].sort((a, b) => b.updated_at.localeCompare(a.updated_at))[0]
  return {
    version: chosen.version,
    updatedAt: chosen.updated_at,
    chars: chosen.chars,
    charLimit: chosen.char_limit,
    isDeleted: chosen.is_deleted === 1,
    userId: chosen.user_id,
    sessionId: chosen.session_id,
  }
}
