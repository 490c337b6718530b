/**
 * Run-history analytics for the runs page, over exactly the runs the list shows for a filter
 * (the run index's runIndexRunsSql, or run-filter-sql.ts without the index). Four aggregate
 * queries, sent together; each returns a handful of rows.
 */
import { z } from 'zod'
import { queryRows, type QueryParams } from '../clickhouse/query'
import { chTimeToIso } from '../clickhouse/time'
import { tableNames, source } from '../loom/tables'
import { fillResumeDays, fillStatusBuckets, floorTo, type BucketUnit, type ResumeDay, type StatusBucket } from './analytics-buckets'
import {
  filterParams,
  filterParts,
  filteredRunsSql,
  identityConditions,
  narrowsBeyondIdentity,
  requireIndexForFlags,
  runRowConditions,
  whereSql,
} from './run-filter-sql'
import { indexNames, runIndexParams, runIndexReady, runIndexRunsSql } from './run-index'
import { flagFilterSql } from './run-flags'
import type { RunsFilter } from './runs'
import { activeTime, type ActiveTime } from './active-time'
import { existingTables } from './schema-presence'
import { rowRunKey, runKeyText } from '../loom/identity'
import { checkpointBucketSql, ROLLUP_LEVEL } from '../loom/rollup-ddl'
import { isKind, rollupLevel, rollupReady, rollupSums, rollupTop, rollupTopRowSchema, type RollupTopRow } from './analytics-rollup'
import { TupleParam } from '@clickhouse/client'

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
  attempt: number
  /** Time in process segments (see active-time.ts); what "slowest" ranks by. Null for a run without a duration. */
  activeMs: number | null
  /** Time between a crash and the next begin; null when the data cannot tell. */
  idleMs: number | null
  idleKnown: ActiveTime['idleKnown'] | null
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
  /**
   * What answered: `aggregates`, the running totals kept on write (filters of org / namespace /
   * agent and status); `query`, the filter's runs read one by one (free text, time range, flags, or
   * no rollup installed).
   */
  servedFrom: 'aggregates' | 'query'
}

/** A range of at most this many hours is charted per hour; longer ones per day. */
export const MAX_HOURLY_SPAN_HOURS = 72
const TOP_N = 5
/**
 * Slowest runs are ranked by active time among this many runs with the longest wall-clock
 * durations (active time never exceeds the duration, so a run outside them could only enter the
 * top five if more than this many long runs were mostly idle).
 */
const SLOW_CANDIDATES = 200
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

/** A top run as the direct queries read it (the costliest query reads no begin, end or last write). */
const topRowSchema = rollupTopRowSchema.extend({
  kind: z.enum(['slowest', 'costliest']),
  attempt: z.coerce.number().default(1),
  last_begin_text: z.string().default(''),
  completed_text: z.string().nullable().default(null),
  last_write_text: z.string().nullable().default(null),
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
function resumesQuery(f: RunsFilter, params: QueryParams, flagged: string[], signal?: AbortSignal) {
  if (!filterParts(f).withRuns) return Promise.resolve([])
  return queryRows(
    `SELECT toString(toDate(last_begin_at)) AS day, count() AS resumed_runs, sum(attempt - 1) AS extra_attempts
     FROM ${source(tableNames().runs, { final: true })}
     ${whereSql([...runRowConditions(f), ...flagged, 'attempt > 1'])}
     GROUP BY day
     ORDER BY day`,
    params,
    resumeRowSchema,
    { signal },
  )
}

/** Top runs by cost, ties broken by the run key so the order is stable. */
function costliestQuery(f: RunsFilter, params: QueryParams, flagged: string[], signal?: AbortSignal) {
  if (!filterParts(f).withRuns) return Promise.resolve([])
  return queryRows(
    `SELECT 'costliest' AS kind, org, namespace, agent, run_id, goal, toString(status) AS status,
        toString(started_at) AS started_text, duration_ms, cost_usd, attempt
      FROM ${source(tableNames().runs, { final: true })} ${whereSql([...runRowConditions(f), ...flagged, 'cost_usd > 0'])}
      ORDER BY cost_usd DESC, org, namespace, agent, run_id
      LIMIT {top:UInt32}`,
    { ...params, top: TOP_N },
    topRowSchema,
    { signal },
  )
}

/**
 * The longest finished runs by wall clock, each with the agent's latest working-memory write
 * before its latest begin (the crash point of a resumed run), from the history table when it
 * is installed (merges remove older rows from working memory itself).
 */
/**
 * Joins `cand` (a CTE of runs: org, namespace, agent, run_id, last_begin_at, attempt) to each
 * resumed run's latest working-memory write before its latest begin (the crash point), from the
 * history table when it is installed (merges remove older rows from working memory itself), as
 * `w.last_write`.
 */
async function lastWriteJoin(signal?: AbortSignal): Promise<string> {
  const t = tableNames()
  const writes = (await existingTables(signal)).has(t.history) ? t.history : t.workingMemory
  return `LEFT JOIN (
       SELECT w.org AS org, w.namespace AS namespace, w.agent AS agent, w.run_id AS run_id, toNullable(max(w.updated_at)) AS last_write
       FROM ${source(writes)} AS w
       INNER JOIN (SELECT org, namespace, agent, run_id, last_begin_at FROM cand WHERE attempt > 1) AS r
         ON w.org = r.org AND w.namespace = r.namespace AND w.agent = r.agent AND w.run_id = r.run_id
       WHERE (w.org, w.namespace, w.agent, w.run_id) IN (SELECT org, namespace, agent, run_id FROM cand WHERE attempt > 1)
         AND w.updated_at < r.last_begin_at AND NOT startsWith(w.actor, 'operator:')
       GROUP BY org, namespace, agent, run_id
     ) AS w ON c.org = w.org AND c.namespace = w.namespace AND c.agent = w.agent AND c.run_id = w.run_id`
}

/** The longest finished runs by wall clock, each with its last write before its latest begin. */
async function slowCandidatesQuery(f: RunsFilter, params: QueryParams, flagged: string[], signal?: AbortSignal) {
  if (!filterParts(f).withRuns) return []
  return queryRows(
    `WITH cand AS (
       SELECT org, namespace, agent, run_id, goal, status, started_at, last_begin_at, completed_at, duration_ms, cost_usd, attempt
       FROM ${source(tableNames().runs, { final: true })} ${whereSql([...runRowConditions(f), ...flagged, 'duration_ms IS NOT NULL'])}
       ORDER BY duration_ms DESC, org, namespace, agent, run_id
       LIMIT {candidates:UInt32}
     )
     SELECT 'slowest' AS kind, c.org AS org, c.namespace AS namespace, c.agent AS agent, c.run_id AS run_id, c.goal AS goal,
       toString(c.status) AS status, toString(c.started_at) AS started_text, toString(c.last_begin_at) AS last_begin_text,
       if(c.completed_at IS NULL, NULL, toString(c.completed_at)) AS completed_text, c.duration_ms AS duration_ms,
       c.cost_usd AS cost_usd, c.attempt AS attempt, if(w.last_write IS NULL, NULL, toString(w.last_write)) AS last_write_text
     FROM cand AS c
     ${await lastWriteJoin(signal)}`,
    { ...params, candidates: SLOW_CANDIDATES },
    topRowSchema,
    { signal },
  )
}

/** The last write before the latest begin of each resumed run among `rows` (already read), by run key. */
async function lastWritesOf(rows: RollupTopRow[], signal?: AbortSignal): Promise<Map<string, string | null>> {
  const resumed = rows.filter((r) => r.attempt > 1)
  if (!resumed.length) return new Map()
  const found = await queryRows(
    `WITH cand AS (
       SELECT tupleElement(c, 1) AS org, tupleElement(c, 2) AS namespace, tupleElement(c, 3) AS agent, tupleElement(c, 4) AS run_id,
         toDateTime64(tupleElement(c, 5), 3, 'UTC') AS last_begin_at, tupleElement(c, 6) AS attempt
       FROM (SELECT arrayJoin({cands:Array(Tuple(String, String, String, String, String, UInt32))}) AS c)
     )
     SELECT c.org AS org, c.namespace AS namespace, c.agent AS agent, c.run_id AS run_id,
       if(w.last_write IS NULL, NULL, toString(w.last_write)) AS last_write_text
     FROM cand AS c
     ${await lastWriteJoin(signal)}`,
    { cands: resumed.map((r) => new TupleParam([r.org, r.namespace, r.agent, r.run_id, r.last_begin_text, r.attempt])) },
    z.object({ org: z.string(), namespace: z.string(), agent: z.string(), run_id: z.string(), last_write_text: z.string().nullable() }),
    { signal },
  )
  return new Map(found.map((r) => [rowRunKey(r), r.last_write_text]))
}

/** The slowest runs by active time (ties: longer duration, then the run key). */
function rankSlowest(rows: z.infer<typeof topRowSchema>[]): TopRun[] {
  const ms = (text: string | null) => (text ? Date.parse(chTimeToIso(text)) : null)
  return rows
    .map(toTopRun)
    .map((run, i) => {
      const r = rows[i]
      const a = activeTime({
        startedAt: Date.parse(run.startedAt),
        lastBeginAt: ms(r.last_begin_text) ?? Date.parse(run.startedAt),
        completedAt: ms(r.completed_text),
        durationMs: r.duration_ms,
        attempt: r.attempt,
        lastWriteBeforeResume: ms(r.last_write_text),
      })
      return { ...run, activeMs: a?.activeMs ?? null, idleMs: a?.idleMs ?? null, idleKnown: a?.idleKnown ?? null }
    })
    .sort((x, y) => (y.activeMs ?? -1) - (x.activeMs ?? -1) || (y.durationMs ?? -1) - (x.durationMs ?? -1) || runKeyText(x).localeCompare(runKeyText(y)))
    .slice(0, TOP_N)
}

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
  const bucket = checkpointBucketSql(fromIndex ? 'chars' : 'lengthUTF8(content)')
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
    attempt: r.attempt,
    activeMs: null,
    idleMs: null,
    idleKnown: null,
  }
}

/** The rollup reads this many of the longest runs first for the slowest five (see slowestFromRollup). */
const SLOW_FIRST = 40

/**
 * The slowest runs' candidates over all runs (or one status) from the rollup, with their last
 * write before resuming: the SLOW_CANDIDATES longest, as the direct query reads, unless fewer
 * settle it. Active time never exceeds the duration, so when the fifth-best active time among the
 * SLOW_FIRST longest beats the next run's duration, no run further down can enter the five, and
 * those SLOW_FIRST rank the same five. Null when the rollup cannot tell.
 */
async function slowestFromRollup(status: string | undefined, signal?: AbortSignal): Promise<z.infer<typeof topRowSchema>[] | null> {
  const withLastWrites = async (rows: RollupTopRow[]) => {
    const lastWrites = await lastWritesOf(rows, signal)
    return rows.map((r) => ({ kind: 'slowest' as const, ...r, last_write_text: lastWrites.get(rowRunKey(r)) ?? null }))
  }
  const first = await rollupTop('duration', SLOW_FIRST + 1, status, signal)
  if (first === null) return null
  const head = await withLastWrites(first.slice(0, SLOW_FIRST))
  if (first.length <= SLOW_FIRST) return head
  const fifth = rankSlowest(head)[TOP_N - 1]
  if (fifth?.activeMs != null && fifth.activeMs > (first[SLOW_FIRST].duration_ms ?? 0)) return head
  const all = await rollupTop('duration', SLOW_CANDIDATES, status, signal)
  return all === null ? null : withLastWrites(all)
}

/** What the analytics are assembled from, whichever path read it. */
type Parts = {
  unit: BucketUnit
  started: { start: number; status: string; runs: number }[]
  resumes: ResumeDay[]
  sizes: z.infer<typeof sizeRowSchema>[]
  slow: z.infer<typeof topRowSchema>[]
  costliest: z.infer<typeof topRowSchema>[]
}

/** Chart unit for runs started over `hours` (first to last hour with runs) when the filter sets no range. */
const unitForSpan = (hours: number): BucketUnit => (hours > MAX_HOURLY_SPAN_HOURS ? 'day' : 'hour')

async function directParts(f: RunsFilter, now: number, signal?: AbortSignal): Promise<Parts> {
  const spanHours = rangeSpanHours(f, now)
  // The run index holds the list's runs without grouping working memory; the union query is the fallback.
  const fromIndex = await runIndexReady(signal)
  requireIndexForFlags(f, fromIndex)
  const params = fromIndex ? runIndexParams(f) : filterParams(f)
  const runsSql = fromIndex ? await runIndexRunsSql(f) : filteredRunsSql(f)
  // Queries that read run rows directly keep the flagged runs only (flags need the index).
  const flagged = f.flag?.length ? [`(org, namespace, agent, run_id) IN (${await flagFilterSql(f.flag, f)})`] : []
  const [statusRows, resumeRows, sizes, slow, costliest] = await Promise.all([
    statusQuery(runsSql, params, spanHours, signal),
    resumesQuery(f, params, flagged, signal),
    sizesQuery(f, params, runsSql, fromIndex, signal),
    slowCandidatesQuery(f, params, flagged, signal),
    costliestQuery(f, params, flagged, signal),
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

/**
 * The same parts from the run rollup (analytics-rollup.ts), for a filter it can answer; the top runs
 * of an org, namespace or agent come from its run rows (a sorting-key prefix read), and over all runs
 * from the rollup's value-sorted table. Null when the rollup cannot answer exactly.
 */
async function rollupParts(f: RunsFilter, level: number, signal?: AbortSignal): Promise<Parts | null> {
  const withRuns = filterParts(f).withRuns
  const overAll = level === ROLLUP_LEVEL.all
  const [sums, slowTop, costTop] = await Promise.all([
    rollupSums(f, level, signal),
    withRuns && overAll ? slowestFromRollup(f.status, signal) : Promise.resolve([]),
    withRuns && overAll ? rollupTop('cost', TOP_N, f.status, signal) : Promise.resolve([]),
  ])
  if (slowTop === null || costTop === null) return null
  let slow: z.infer<typeof topRowSchema>[]
  let costliest: z.infer<typeof topRowSchema>[]
  if (overAll) {
    slow = slowTop
    costliest = costTop.map((r) => ({ kind: 'costliest', ...r, last_write_text: null }))
  } else {
    const params = filterParams(f)
    ;[slow, costliest] = await Promise.all([slowCandidatesQuery(f, params, [], signal), costliestQuery(f, params, [], signal)])
  }
  const hours = sums.filter(isKind('started')).map((r) => ({ start: Date.parse(chTimeToIso(r.at_text)), status: r.status, runs: r.runs }))
  const first = Math.min(...hours.map((h) => h.start))
  const last = Math.max(...hours.map((h) => h.start))
  // No runs and no range: per day, as the direct query says.
  const unit = hours.length ? unitForSpan((last - first) / HOUR) : 'day'
  const started = new Map<string, { start: number; status: string; runs: number }>()
  for (const h of hours) {
    const start = floorTo(h.start, unit)
    const b = started.get(`${start} ${h.status}`) ?? { start, status: h.status, runs: 0 }
    b.runs += h.runs
    started.set(`${start} ${h.status}`, b)
  }
  const resumes = new Map<string, ResumeDay>()
  for (const r of sums.filter(isKind('resumed'))) {
    const day = chTimeToIso(r.at_text).slice(0, 10)
    const d = resumes.get(day) ?? { day, resumedRuns: 0, extraAttempts: 0 }
    d.resumedRuns += r.runs
    d.extraAttempts += r.extra
    resumes.set(day, d)
  }
  const sizes = new Map<number, number>()
  for (const r of sums.filter(isKind('size'))) sizes.set(r.bucket, (sizes.get(r.bucket) ?? 0) + r.runs)
  return {
    unit,
    started: [...started.values()],
    resumes: [...resumes.values()].sort((a, b) => a.day.localeCompare(b.day)),
    sizes: [...sizes].map(([bucket, runs]) => ({ bucket, runs })),
    slow,
    costliest,
  }
}

/**
 * The analytics for a filter: from the run rollup when it is installed and the filter allows
 * (`servedFrom: 'aggregates'`), else by the direct queries over the filter's runs (`'query'`).
 * `direct`: skip the rollup (the tests compare both).
 */
export async function runsAnalytics(
  f: RunsFilter,
  signal?: AbortSignal,
  now = Date.now(),
  options: { direct?: boolean } = {},
): Promise<RunsAnalytics> {
  const level = options.direct ? null : rollupLevel(f)
  const fromRollup =
    level !== null && (await runIndexReady(signal)) && (await rollupReady(signal)) ? await rollupParts(f, level, signal) : null
  const parts = fromRollup ?? (await directParts(f, now, signal))
  const { unit } = parts
  const buckets = fillStatusBuckets(parts.started, unit, { from: f.from, to: f.to, now })
  const byStatus: Record<string, number> = {}
  for (const r of parts.started) byStatus[r.status] = (byStatus[r.status] ?? 0) + r.runs
  const chartRange: [number, number] | null = buckets.length
    ? [Date.parse(buckets[0].start), Date.parse(buckets[buckets.length - 1].start)]
    : null
  const days = fillResumeDays(parts.resumes, chartRange)
  return {
    statusOverTime: { unit, buckets },
    totals: { runs: parts.started.reduce((s, r) => s + r.runs, 0), byStatus },
    resumes: {
      days,
      resumedRuns: parts.resumes.reduce((s, r) => s + r.resumedRuns, 0),
      extraAttempts: parts.resumes.reduce((s, r) => s + r.extraAttempts, 0),
    },
    checkpointSizes: sizeSummary(parts.sizes),
    slowest: rankSlowest(parts.slow),
    costliest: parts.costliest.map(toTopRun),
    servedFrom: fromRollup ? 'aggregates' : 'query',
  }
}
