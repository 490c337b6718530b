/**
 * The replay preview of every item a batch would write, in bulk: the contents of each block's
 * current and target versions in one statement, then each run table counted once for all runs,
 * each run against its own `since` (the target's write time; a clear: the run's first write).
 */
import { TupleParam } from '@clickhouse/client'
import { z } from 'zod'
import { selectRows } from '../clickhouse/query'
import { param, sql, trusted, type Sql } from '../clickhouse/sql'
import { chTimeToIso, toChTime } from '../tables/time'
import { unitsToRedo } from '../diff'
import { versionString } from '../tables/values'
import { source, tableNames } from '../loom/tables'
import { existingTables } from '../clickhouse/schema-presence'
import { versionsSource, type ReplayCounts } from '../queries/replay'
import type { BatchItem } from './types'

const runKey = (r: { org: string; namespace: string; agent: string; runId: string }) =>
  JSON.stringify([r.org, r.namespace, r.agent, r.runId])

const contentRow = z.object({
  org: z.string(),
  namespace: z.string(),
  agent: z.string(),
  run_id: z.string(),
  v: versionString,
  written_at: z.string(),
  body: z.string(),
  deleted: z.coerce.number(),
})

const firstRow = z.object({
  org: z.string(),
  namespace: z.string(),
  agent: z.string(),
  run_id: z.string(),
  first_at: z.string(),
})
const countRow = z.object({
  org: z.string(),
  namespace: z.string(),
  agent: z.string(),
  run_id: z.string(),
  n: z.coerce.number(),
})

/** Adds `after` and `units` to the items that write (clear or restore); skipped items stay as they are. */
export async function withForesight(items: BatchItem[], signal?: AbortSignal): Promise<BatchItem[]> {
  const writing = items.filter((i) => i.action !== 'skip' && i.fromVersion !== null)
  if (writing.length === 0) return items
  const t = tableNames()
  const tables = await existingTables(signal)
  const versionsTable = versionsSource(tables.has(t.history))
  const blockKey = writing[0].blockKey
  // The current and target versions' contents, keyed by the block's whole sorting key and version.
  const wanted = writing.flatMap((i) =>
    [i.fromVersion, i.action === 'restore' ? i.toVersion : null]
      .filter((v): v is string => v !== null)
      .map((v) => new TupleParam([i.org, i.namespace, i.agent, i.userId, i.sessionId, i.runId, v])),
  )
  const runs = [
    ...new Map(writing.map((i) => [runKey(i), new TupleParam([i.org, i.namespace, i.agent, i.runId])])).values(),
  ]
  const runsParam = param('runs', 'Array(Tuple(String, String, String, String))', runs)
  const [contents, firsts] = await Promise.all([
    selectRows(
      sql`SELECT org, namespace, agent, run_id, toString(version) AS v, toString(any(updated_at)) AS written_at, any(content) AS body, any(is_deleted) AS deleted
       FROM ${trusted(versionsTable)}
       WHERE (org, namespace, agent, user_id, session_id, run_id, toString(version)) IN ${param('wanted', 'Array(Tuple(String, String, String, String, String, String, String))', wanted)}
         AND block_key = ${param('block_key', 'String', blockKey)}
       GROUP BY org, namespace, agent, user_id, session_id, run_id, version`,
      contentRow,
      { signal },
    ),
    selectRows(
      sql`SELECT org, namespace, agent, run_id, toString(min(updated_at)) AS first_at FROM ${trusted(versionsTable)}
       WHERE (org, namespace, agent, run_id) IN ${runsParam} GROUP BY org, namespace, agent, run_id`,
      firstRow,
      { signal },
    ),
  ])
  const content = new Map(contents.map((r) => [`${runKey({ ...r, runId: r.run_id })}#${r.v}`, r]))
  const first = new Map(firsts.map((r) => [runKey({ ...r, runId: r.run_id }), r.first_at]))

  // Each run's `since`: the target's write time, or the run's first write for a clear.
  const since = new Map<string, string>()
  for (const i of writing) {
    const target = i.action === 'restore' && i.toVersion ? content.get(`${runKey(i)}#${i.toVersion}`) : null
    const at = target ? target.written_at : first.get(runKey(i))
    if (at) since.set(runKey(i), at)
  }
  const keys = [...since.keys()].map((k) => new TupleParam(JSON.parse(k) as string[]))
  const times = [...since.values()].map((at) => toChTime(chTimeToIso(at)))
  const keysParam = param('keys', 'Array(Tuple(String, String, String, String))', keys)
  const after = (time: string) =>
    sql`${trusted(time)} > arrayElement(${param('since', "Array(DateTime64(3, 'UTC'))", times)}, indexOf(${keysParam}, (org, namespace, agent, run_id)))`
  /** Rows of one table per run written after that run's `since`; `what` is count() or, for the block's versions, uniqExact(version). */
  const counted = async (table: string | null, time: string, what: Sql = sql`count()`, extra: Sql = sql``) => {
    if (table === null || keys.length === 0) return new Map<string, number>()
    const rows = await selectRows(
      sql`SELECT org, namespace, agent, run_id, ${what} AS n FROM ${trusted(table)}
       WHERE (org, namespace, agent, run_id) IN ${keysParam} AND ${after(time)}${extra}
       GROUP BY org, namespace, agent, run_id`,
      countRow,
      { signal },
    )
    return new Map(rows.map((r) => [runKey({ ...r, runId: r.run_id }), r.n]))
  }
  const present = (table: string) => (tables.has(table) ? source(table) : null)
  const [checkpoints, turns, memory, searches, blobs] = await Promise.all([
    counted(
      versionsTable,
      'updated_at',
      sql`uniqExact(version)`,
      sql` AND block_key = ${param('block_key', 'String', blockKey)}`,
    ),
    counted(present(t.turns), 'created_at'),
    counted(present(t.memory), 'updated_at'),
    counted(present(t.searchTrace), 'event_time'),
    counted(present(t.contextBlobs), 'created_at'),
  ])
  return items.map((i) => {
    if (i.action === 'skip' || i.fromVersion === null) return i
    const k = runKey(i)
    const current = content.get(`${k}#${i.fromVersion}`)
    const target = i.action === 'restore' && i.toVersion ? content.get(`${k}#${i.toVersion}`) : null
    const afterCounts: ReplayCounts = {
      checkpointWrites: checkpoints.get(k) ?? 0,
      turns: turns.get(k) ?? 0,
      memoryWrites: memory.get(k) ?? 0,
      searches: searches.get(k) ?? 0,
      blobs: blobs.get(k) ?? 0,
    }
    const units = current
      ? unitsToRedo(
          current.deleted ? '' : current.body,
          i.action === 'clear' ? null : target ? (target.deleted ? '' : target.body) : null,
        )
      : { kind: 'none' as const, redo: null, sample: [] }
    return { ...i, after: afterCounts, units }
  })
}
