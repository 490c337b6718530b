/**
 * Run-history analytics for the runs page, over exactly the runs the list shows for a filter
 * (the run index's runIndexRunsSql, or run-filter-sql.ts without the index). Four aggregate
 * queries, sent together; each returns a handful of rows.
 */
import { z } from 'zod'
import { queryRows, type QueryParams } from '../clickhouse/query'
import { chTimeToIso } from '../clickhouse/time'
import { tableNames, source } from '../loom/tables'
import { fillResumeDays, fillStatusBuckets, type BucketUnit, type ResumeDay, type StatusBucket } from './analytics-buckets'
import {
  filterParams,
  filterParts,
  filteredRunsSql,
  identityConditions,
  narrowsBeyondIdentity,
  runRowConditions,
  whereSql,
} from './run-filter-sql'
import { indexNames, runIndexReady, runIndexRunsSql } from './run-index'
import type { RunsFilter } from './runs'

export type { BucketUnit, ResumeDay, StatusBucket }

export type SizeBucket = {
  /** Share of char_limit, in percent: [fromPct, toPct); the last regular bucket includes 100. */
  fromPct: number
  toPct: number
  runs: number
}

export type TopRun = {
  org: string
  namespace: string
  agent: string
  runId: string
  goal: string
  status: string
  startedAt: string
  durationMs: number | null
  costUsd: number
}

export type RunsAnalytics = {
  statusOverTime: { unit: BucketUnit; buckets: StatusBucket[] }
  totals: { runs: number; byStatus: Record<string, number> }
  resumes: { days: ResumeDay[]; resumedRuns: number; extraAttempts: number }
  checkpointSizes: {
    /** Ten buckets of 10 % each, over the latest live checkpoint of each run. */
    buckets: SizeBucket[]
    /** Runs counted in the buckets. */
    runs: number
    /** Runs whose latest checkpoint is a tombstone (not in the buckets). */
    cleared: number
    /** Latest checkpoints over their char_limit (written around Loom; not in the buckets). */
    overLimit: number
    /** Runs at 90 % of char_limit or more (the last bucket). */
    nearLimit: number
  }
  slowest: TopRun[]
  costliest: TopRun[]
}

/** A range of at most this many hours is charted per hour; longer ones per day. */
export const MAX_HOURLY_SPAN_HOURS = 72
const TOP_N = 5
const HOUR = 3_600_000

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

const sizeRowSchema = z.object({ bucket: z.coerce.number(), runs: z.coerce.number() })

const topRowSchema = z.object({
  kind: z.enum(['slowest', 'costliest']),
  org: z.string(),
  namespace: z.string(),
  agent: z.string(),
  run_id: z.string(),
  goal: z.string(),
  status: z.string(),
  started_text: z.string(),
  duration_ms: z.coerce.number().nullable(),
  cost_usd: z.coerce.number(),
})

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
function statusQuery(runsSql: string, params: QueryParams, spanHours: number, signal?: AbortSignal) {
  return queryRows(
    `SELECT toString(bucket) AS bucket_text, status, sum(n) AS runs, any(unit) AS unit
     FROM (
       SELECT status, n,
         if(if({span_hours:Float64} >= 0, {span_hours:Float64}, toFloat64(dateDiff('hour', min(hour) OVER (), max(hour) OVER ())))
              > {max_hourly:Float64}, 'day', 'hour') AS unit,
         if(unit = 'day', toDateTime(toStartOfDay(hour), 'UTC'), hour) AS bucket
       FROM (
         SELECT toDateTime(toStartOfHour(started_at), 'UTC') AS hour, status, count() AS n
         FROM (${runsSql})
         GROUP BY hour, status
       )
     )
     GROUP BY bucket, status
     ORDER BY bucket, status`,
    { ...params, span_hours: spanHours, max_hourly: MAX_HOURLY_SPAN_HOURS },
    statusRowSchema,
    { signal },
  )
}

/** Resumed runs (attempt > 1) by the day of their latest begin. */
function resumesQuery(f: RunsFilter, params: QueryParams, signal?: AbortSignal) {
  if (!filterParts(f).withRuns) return Promise.resolve([])
  return queryRows(
    `SELECT toString(toDate(last_begin_at)) AS day, count() AS resumed_runs, sum(attempt - 1) AS extra_attempts
     FROM ${source(tableNames().runs, { final: true })}
     ${whereSql([...runRowConditions(f), 'attempt > 1'])}
     GROUP BY day
     ORDER BY day`,
    params,
    resumeRowSchema,
    { signal },
  )
}

/** Top runs by duration and by cost, ties broken by the run key so the order is stable. */
function topQuery(f: RunsFilter, params: QueryParams, signal?: AbortSignal) {
  if (!filterParts(f).withRuns) return Promise.resolve([])
  const t = tableNames()
  const conds = runRowConditions(f)
  const pick = (kind: string, extra: string, order: string) => `SELECT * FROM (
      SELECT '${kind}' AS kind, org, namespace, agent, run_id, goal, toString(status) AS status,
        toString(started_at) AS started_text, duration_ms, cost_usd
      FROM ${source(t.runs, { final: true })} ${whereSql([...conds, extra])}
      ORDER BY ${order}, org, namespace, agent, run_id
      LIMIT {top:UInt32})`
  return queryRows(
    `${pick('slowest', 'duration_ms IS NOT NULL', 'duration_ms DESC')}
     UNION ALL
     ${pick('costliest', 'cost_usd > 0', 'cost_usd DESC')}`,
    { ...params, top: TOP_N },
    topRowSchema,
    { signal },
  )
}

/** Bucket of a checkpoint: 0..9 by 10 % of char_limit, 10 over the limit, -1 a tombstone. */
const sizeBucket = (chars: string) =>
  `multiIf(is_deleted = 1, -1, char_limit = 0 OR ${chars} > char_limit, 10, toInt32(least(intDiv(${chars} * 10, char_limit), 9)))`

/**
 * The latest checkpoint of each run (newest block across its (user_id, session_id) pairs), in
 * buckets of chars / char_limit. From the run index's checkpoint table when it is installed (one
 * row per run and pair, sizes already measured), else from working memory itself.
 */
function sizesQuery(f: RunsFilter, params: QueryParams, runsSql: string, fromIndex: boolean, signal?: AbortSignal) {
  const conds = [...identityConditions(f)]
  if (!fromIndex) conds.push("block_key = 'checkpoint'")
  if (narrowsBeyondIdentity(f)) {
    conds.push(`(org, namespace, agent, run_id) IN (SELECT org, namespace, agent, run_id FROM (${runsSql}))`)
  }
  const from = fromIndex ? `${indexNames().checkpoints} FINAL` : source(tableNames().workingMemory, { final: true })
  const bucket = sizeBucket(fromIndex ? 'chars' : 'lengthUTF8(content)')
  // The bucket is computed per row before the per-run argMax: a small integer state instead of a
  // tuple halves the cost of grouping a million runs.
  return queryRows(
    `SELECT bucket, count() AS runs
     FROM (
       SELECT argMax(${bucket}, (updated_at, version)) AS bucket
       FROM ${from}
       ${whereSql(conds)}
       GROUP BY org, namespace, agent, run_id
     )
     GROUP BY bucket
     ORDER BY bucket`,
    params,
    sizeRowSchema,
    { signal },
  )
}

function sizeSummary(rows: z.infer<typeof sizeRowSchema>[]): RunsAnalytics['checkpointSizes'] {
  const at = (bucket: number) => rows.find((r) => r.bucket === bucket)?.runs ?? 0
  const buckets = Array.from({ length: 10 }, (_, i) => ({ fromPct: i * 10, toPct: (i + 1) * 10, runs: at(i) }))
  return {
    buckets,
    runs: buckets.reduce((s, b) => s + b.runs, 0),
    cleared: at(-1),
    overLimit: at(10),
    nearLimit: at(9),
  }
}

function toTopRun(r: z.infer<typeof topRowSchema>): TopRun {
  return {
    org: r.org,
    namespace: r.namespace,
    agent: r.agent,
    runId: r.run_id,
    goal: r.goal,
    status: r.status,
    startedAt: chTimeToIso(r.started_text),
    durationMs: r.duration_ms,
    costUsd: r.cost_usd,
  }
}

export async function runsAnalytics(f: RunsFilter, signal?: AbortSignal, now = Date.now()): Promise<RunsAnalytics> {
  const params = filterParams(f)
  const spanHours = rangeSpanHours(f, now)
  // The run index holds the list's runs without grouping working memory; the union query is the fallback.
  const fromIndex = await runIndexReady(signal)
  const runsSql = fromIndex ? runIndexRunsSql(f) : filteredRunsSql(f)
  const [statusRows, resumeRows, sizeRows, topRows] = await Promise.all([
    statusQuery(runsSql, params, spanHours, signal),
    resumesQuery(f, params, signal),
    sizesQuery(f, params, runsSql, fromIndex, signal),
    topQuery(f, params, signal),
  ])
  const unit: BucketUnit = statusRows[0]?.unit ?? (spanHours >= 0 && spanHours <= MAX_HOURLY_SPAN_HOURS ? 'hour' : 'day')
  const buckets = fillStatusBuckets(
    statusRows.map((r) => ({ start: Date.parse(chTimeToIso(r.bucket_text)), status: r.status, runs: r.runs })),
    unit,
    { from: f.from, to: f.to, now },
  )
  const byStatus: Record<string, number> = {}
  for (const r of statusRows) byStatus[r.status] = (byStatus[r.status] ?? 0) + r.runs
  const chartRange: [number, number] | null = buckets.length
    ? [Date.parse(buckets[0].start), Date.parse(buckets[buckets.length - 1].start)]
    : null
  const days = fillResumeDays(
    resumeRows.map((r) => ({ day: r.day, resumedRuns: r.resumed_runs, extraAttempts: r.extra_attempts })),
    chartRange,
  )
  return {
    statusOverTime: { unit, buckets },
    totals: { runs: statusRows.reduce((s, r) => s + r.runs, 0), byStatus },
    resumes: {
      days,
      resumedRuns: resumeRows.reduce((s, r) => s + r.resumed_runs, 0),
      extraAttempts: resumeRows.reduce((s, r) => s + r.extra_attempts, 0),
    },
    checkpointSizes: sizeSummary(sizeRows),
    slowest: topRows.filter((r) => r.kind === 'slowest').map(toTopRun),
    costliest: topRows.filter((r) => r.kind === 'costliest').map(toTopRun),
  }
}
