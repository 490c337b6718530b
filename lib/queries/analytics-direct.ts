/**
 * The runs-page analytics read directly from the filter's runs (the run set, from the run index or
 * the union backend): four aggregates and two top lists, sent together; each returns a handful of rows.
 */
import { z } from 'zod'
import { selectRows } from '../clickhouse/query'
import { param, sql, trusted, type Sql } from '../clickhouse/sql'
import { chTimeToIso } from '../tables/time'
import { checkpointBucketSql } from '../derived/rollup-state'
import { tableNames, source } from '../loom/tables'
import { identityConditions, where } from '../run-set/conditions'
import { filterParts, narrowsBeyondIdentity, type RunsFilter } from '../run-set/filter'
import { openRunSet } from '../run-set/run-set'
import { lastWriteJoin } from './analytics-last-write'
import {
  HOUR,
  MAX_HOURLY_SPAN_HOURS,
  SLOW_CANDIDATES,
  sizeRowSchema,
  TOP_N,
  topRowSchema,
  type AnalyticsParts,
  type TopRow,
} from './analytics-types'
import { indexNames } from '../run-set/run-index'

const statusRowSchema = z.object({
  bucket_text: z.string(),
  status: z.string(),
  runs: z.coerce.number(),
  unit: z.enum(['hour', 'day']),
})

const resumeRowSchema = z.object({
  day: z.string(),
  resumed_runs: z.coerce.number(),
  extra_attempts: z.coerce.number(),
})

const RUNS_FINAL = () => trusted(source(tableNames().runs, { final: true }))

/** Hours the filter's time range spans, or -1 when it is open at the start (the data decides). */
function rangeSpanHours(f: RunsFilter, now: number): number {
  if (!f.from) return -1
  return Math.max(0, ((f.to?.getTime() ?? now) - f.from.getTime()) / HOUR)
}

/**
 * Runs started per bucket and status. The bucket is an hour when the filter's range (or, with
 * no start, the data's own span) is at most MAX_HOURLY_SPAN_HOURS, else a day: decided in the
 * same query, by a window over the hourly counts.
 */
function statusQuery(runsSql: Sql, spanHours: number, signal?: AbortSignal) {
  const span = param('span_hours', 'Float64', spanHours)
  return selectRows(
    sql`SELECT toString(bucket) AS bucket_text, status, sum(n) AS runs, any(unit) AS unit
     FROM (
       SELECT status, n,
         if(if(${span} >= 0, ${span}, toFloat64(dateDiff('hour', min(hour) OVER (), max(hour) OVER ())))
              > ${param('max_hourly', 'Float64', MAX_HOURLY_SPAN_HOURS)}, 'day', 'hour') AS unit,
         if(unit = 'day', toDateTime(toStartOfDay(hour), 'UTC'), hour) AS bucket
       FROM (
         SELECT toDateTime(toStartOfHour(started_at), 'UTC') AS hour, status, count() AS n
         FROM (${runsSql})
         GROUP BY hour, status
       )
     )
     GROUP BY bucket, status
     ORDER BY bucket, status`,
    statusRowSchema,
    { signal },
  )
}

/** Resumed runs (attempt > 1) by the day of their latest begin; `rowConds` select the set's run rows. */
function resumesQuery(f: RunsFilter, rowConds: Sql[], signal?: AbortSignal) {
  if (!filterParts(f).withRuns) return Promise.resolve([])
  return selectRows(
    sql`SELECT toString(toDate(last_begin_at)) AS day, count() AS resumed_runs, sum(attempt - 1) AS extra_attempts
     FROM ${RUNS_FINAL()}
     ${where([...rowConds, trusted('attempt > 1')])}
     GROUP BY day
     ORDER BY day`,
    resumeRowSchema,
    { signal },
  )
}

/** Top runs by cost, ties broken by the run key so the order is stable. */
export function costliestQuery(f: RunsFilter, rowConds: Sql[], signal?: AbortSignal): Promise<TopRow[]> {
  if (!filterParts(f).withRuns) return Promise.resolve([])
  return selectRows(
    sql`SELECT 'costliest' AS kind, org, namespace, agent, run_id, goal, toString(status) AS status,
        toString(started_at) AS started_text, duration_ms, cost_usd, attempt
      FROM ${RUNS_FINAL()} ${where([...rowConds, trusted('cost_usd > 0')])}
      ORDER BY cost_usd DESC, org, namespace, agent, run_id
      LIMIT ${param('top', 'UInt32', TOP_N)}`,
    topRowSchema,
    { signal },
  )
}

/** The longest finished runs by wall clock, each with its last write before its latest begin. */
export async function slowCandidatesQuery(f: RunsFilter, rowConds: Sql[], signal?: AbortSignal): Promise<TopRow[]> {
  if (!filterParts(f).withRuns) return []
  return selectRows(
    sql`WITH cand AS (
       SELECT org, namespace, agent, run_id, goal, status, started_at, last_begin_at, completed_at, duration_ms, cost_usd, attempt
       FROM ${RUNS_FINAL()} ${where([...rowConds, trusted('duration_ms IS NOT NULL')])}
       ORDER BY duration_ms DESC, org, namespace, agent, run_id
       LIMIT ${param('candidates', 'UInt32', SLOW_CANDIDATES)}
     )
     SELECT 'slowest' AS kind, c.org AS org, c.namespace AS namespace, c.agent AS agent, c.run_id AS run_id, c.goal AS goal,
       toString(c.status) AS status, toString(c.started_at) AS started_text, toString(c.last_begin_at) AS last_begin_text,
       if(c.completed_at IS NULL, NULL, toString(c.completed_at)) AS completed_text, c.duration_ms AS duration_ms,
       c.cost_usd AS cost_usd, c.attempt AS attempt, if(w.last_write IS NULL, NULL, toString(w.last_write)) AS last_write_text
     FROM cand AS c
     ${await lastWriteJoin(signal)}`,
    topRowSchema,
    { signal },
  )
}

/**
 * The latest checkpoint of each run (newest block across its (user_id, session_id) pairs), in
 * buckets of chars / char_limit. From the run index's checkpoint table when it is installed (one
 * row per run and pair, sizes already measured), else from working memory itself.
 */
function sizesQuery(f: RunsFilter, runsSql: Sql, fromIndex: boolean, signal?: AbortSignal) {
  const conds = identityConditions(f)
  if (!fromIndex) conds.push(trusted("block_key = 'checkpoint'"))
  if (narrowsBeyondIdentity(f)) {
    conds.push(sql`(org, namespace, agent, run_id) IN (SELECT org, namespace, agent, run_id FROM (${runsSql}))`)
  }
  const from = fromIndex ? `${indexNames().checkpoints} FINAL` : source(tableNames().workingMemory, { final: true })
  const bucket = checkpointBucketSql(fromIndex ? 'chars' : 'lengthUTF8(content)')
  // The bucket is computed per row before the per-run argMax: a small integer state instead of a
  // tuple halves the cost of grouping a million runs.
  return selectRows(
    sql`SELECT bucket, count() AS runs
     FROM (
       SELECT argMax(${trusted(bucket)}, (updated_at, version)) AS bucket
       FROM ${trusted(from)}
       ${where(conds)}
       GROUP BY org, namespace, agent, run_id
     )
     GROUP BY bucket
     ORDER BY bucket`,
    sizeRowSchema,
    { signal },
  )
}

/** Every part of the analytics by the direct queries over the filter's run set. */
export async function directParts(f: RunsFilter, now: number, signal?: AbortSignal): Promise<AnalyticsParts> {
  const spanHours = rangeSpanHours(f, now)
  const set = await openRunSet(f, { signal })
  // Flags are judged as of this request, whatever `now` the chart range is drawn to.
  const flagsAt = new Date()
  const runsSql = await set.runsSql(flagsAt)
  // Queries that read run rows directly keep the set's runs by the rows' own values (and flags).
  const rowConds = await set.runRowConditions(flagsAt)
  const [statusRows, resumeRows, sizes, slow, costliest] = await Promise.all([
    statusQuery(runsSql, spanHours, signal),
    resumesQuery(f, rowConds, signal),
    sizesQuery(f, runsSql, set.backend === 'index', signal),
    slowCandidatesQuery(f, rowConds, signal),
    costliestQuery(f, rowConds, signal),
  ])
  return {
    unit: statusRows[0]?.unit ?? (spanHours >= 0 && spanHours <= MAX_HOURLY_SPAN_HOURS ? 'hour' : 'day'),
    started: statusRows.map((r) => ({ start: Date.parse(chTimeToIso(r.bucket_text)), status: r.status, runs: r.runs })),
    resumes: resumeRows.map((r) => ({ day: r.day, resumedRuns: r.resumed_runs, extraAttempts: r.extra_attempts })),
    sizes,
    slow,
    costliest,
  }
}
