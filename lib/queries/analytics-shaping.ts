/** Turns the parts either read path gathered into the analytics the API sends. */
import { chTimeToIso } from '../tables/time'
import { runKeyText } from '../loom/identity'
import { activeTime } from './active-time'
import { fillResumeDays, fillStatusBuckets } from './analytics-buckets'
import {
  TOP_N,
  type AnalyticsParts,
  type RunsAnalytics,
  type SizeRow,
  type TopRow,
  type TopRun,
} from './analytics-types'

function toTopRun(r: TopRow): TopRun {
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

/** The slowest runs by active time (ties: longer duration, then the run key). */
export function rankSlowest(rows: TopRow[]): TopRun[] {
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
    .sort(
      (x, y) =>
        (y.activeMs ?? -1) - (x.activeMs ?? -1) ||
        (y.durationMs ?? -1) - (x.durationMs ?? -1) ||
        runKeyText(x).localeCompare(runKeyText(y)),
    )
    .slice(0, TOP_N)
}

function sizeSummary(rows: SizeRow[]): RunsAnalytics['checkpointSizes'] {
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

/** The analytics from their parts: chart buckets filled over the filter's range (or the data's). */
export function shapeAnalytics(
  parts: AnalyticsParts,
  range: { from?: Date; to?: Date; now: number },
  servedFrom: RunsAnalytics['servedFrom'],
): RunsAnalytics {
  const { unit } = parts
  const buckets = fillStatusBuckets(parts.started, unit, range)
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
    servedFrom,
  }
}
