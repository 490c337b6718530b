/**
 * The crash point of a resumed run: the agent's latest working-memory write before its latest
 * begin, read from the history table when it is installed (merges remove older rows from working
 * memory itself). What active time (active-time.ts) subtracts.
 */
import { TupleParam } from '@clickhouse/client'
import { z } from 'zod'
import { selectRows } from '../clickhouse/query'
import { param, sql, trusted, type Sql } from '../clickhouse/sql'
import { rowRunKey } from '../loom/identity'
import { tableNames, source } from '../loom/tables'
import type { RollupTopRow } from './analytics-rollup'
import { existingTables } from '../clickhouse/schema-presence'

/**
 * Joins `cand` (a CTE of runs: org, namespace, agent, run_id, last_begin_at, attempt) to each
 * resumed run's latest write before its latest begin, as `w.last_write`.
 */
export async function lastWriteJoin(signal?: AbortSignal): Promise<Sql> {
  const t = tableNames()
  const writes = (await existingTables(signal)).has(t.history) ? t.history : t.workingMemory
  return sql`LEFT JOIN (
       SELECT w.org AS org, w.namespace AS namespace, w.agent AS agent, w.run_id AS run_id, toNullable(max(w.updated_at)) AS last_write
       FROM ${trusted(source(writes))} AS w
       INNER JOIN (SELECT org, namespace, agent, run_id, last_begin_at FROM cand WHERE attempt > 1) AS r
         ON w.org = r.org AND w.namespace = r.namespace AND w.agent = r.agent AND w.run_id = r.run_id
       WHERE (w.org, w.namespace, w.agent, w.run_id) IN (SELECT org, namespace, agent, run_id FROM cand WHERE attempt > 1)
         AND w.updated_at < r.last_begin_at AND NOT startsWith(w.actor, 'operator:')
       GROUP BY org, namespace, agent, run_id
     ) AS w ON c.org = w.org AND c.namespace = w.namespace AND c.agent = w.agent AND c.run_id = w.run_id`
}

const lastWriteSchema = z.object({
  org: z.string(),
  namespace: z.string(),
  agent: z.string(),
  run_id: z.string(),
  last_write_text: z.string().nullable(),
})

/** The last write before the latest begin of each resumed run among `rows` (already read), by run key. */
export async function lastWritesOf(rows: RollupTopRow[], signal?: AbortSignal): Promise<Map<string, string | null>> {
  const resumed = rows.filter((r) => r.attempt > 1)
  if (!resumed.length) return new Map()
  const cands = resumed.map(
    (r) => new TupleParam([r.org, r.namespace, r.agent, r.run_id, r.last_begin_text, r.attempt]),
  )
  const found = await selectRows(
    sql`WITH cand AS (
       SELECT tupleElement(c, 1) AS org, tupleElement(c, 2) AS namespace, tupleElement(c, 3) AS agent, tupleElement(c, 4) AS run_id,
         toDateTime64(tupleElement(c, 5), 3, 'UTC') AS last_begin_at, tupleElement(c, 6) AS attempt
       FROM (SELECT arrayJoin(${param('cands', 'Array(Tuple(String, String, String, String, String, UInt32))', cands)}) AS c)
     )
     SELECT c.org AS org, c.namespace AS namespace, c.agent AS agent, c.run_id AS run_id,
       if(w.last_write IS NULL, NULL, toString(w.last_write)) AS last_write_text
     FROM cand AS c
     ${await lastWriteJoin(signal)}`,
    lastWriteSchema,
    { signal },
  )
  return new Map(found.map((r) => [rowRunKey(r), r.last_write_text]))
}
