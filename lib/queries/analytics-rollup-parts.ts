/**
 * The analytics' parts from the run rollup (analytics-rollup.ts), for a filter it can answer; the
 * top runs of an org, namespace or agent come from its run rows (a sorting-key prefix read), and
 * over all runs from the rollup's value-sorted table.
 */
import { chTimeToIso } from '../tables/time'
import { rowRunKey } from '../loom/identity'
import { ROLLUP_LEVEL } from '../derived/rollup-state'
import { runRowConditions } from '../run-set/conditions'
import { filterParts, type RunsFilter } from '../run-set/filter'
import { floorTo, type BucketUnit, type ResumeDay } from './analytics-buckets'
import { costliestQuery, slowCandidatesQuery } from './analytics-direct'
import { lastWritesOf } from './analytics-last-write'
import { isKind, rollupSums, rollupTop, type RollupSumRow, type RollupTopRow } from './analytics-rollup'
import { rankSlowest } from './analytics-shaping'
import {
  HOUR,
  MAX_HOURLY_SPAN_HOURS,
  SLOW_CANDIDATES,
  TOP_N,
  type AnalyticsParts,
  type TopRow,
} from './analytics-types'

/** The rollup reads this many of the longest runs first for the slowest five (see slowestFromRollup). */
const SLOW_FIRST = 40

/**
 * The slowest runs' candidates over all runs (or one status) from the rollup, with their last
 * write before resuming: the SLOW_CANDIDATES longest, as the direct query reads, unless fewer
 * settle it. Active time never exceeds the duration, so when the fifth-best active time among the
 * SLOW_FIRST longest beats the next run's duration, no run further down can enter the five, and
 * those SLOW_FIRST rank the same five. Null when the rollup cannot tell.
 */
async function slowestFromRollup(status: string | undefined, signal?: AbortSignal): Promise<TopRow[] | null> {
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

/** Chart unit for runs started over `hours` (first to last hour with runs) when the filter sets no range. */
const unitForSpan = (hours: number): BucketUnit => (hours > MAX_HOURLY_SPAN_HOURS ? 'day' : 'hour')

/** Runs started per chart bucket and status, from the hourly totals. */
function startedBuckets(sums: RollupSumRow[]): Pick<AnalyticsParts, 'unit' | 'started'> {
  const hours = sums
    .filter(isKind('started'))
    .map((r) => ({ start: Date.parse(chTimeToIso(r.at_text)), status: r.status, runs: r.runs }))
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
  return { unit, started: [...started.values()] }
}

function resumeDays(sums: RollupSumRow[]): ResumeDay[] {
  const resumes = new Map<string, ResumeDay>()
  for (const r of sums.filter(isKind('resumed'))) {
    const day = chTimeToIso(r.at_text).slice(0, 10)
    const d = resumes.get(day) ?? { day, resumedRuns: 0, extraAttempts: 0 }
    d.resumedRuns += r.runs
    d.extraAttempts += r.extra
    resumes.set(day, d)
  }
  return [...resumes.values()].sort((a, b) => a.day.localeCompare(b.day))
}

/** The parts from the rollup at `level` (see rollupLevel); null when the rollup cannot answer exactly. */
export async function rollupParts(f: RunsFilter, level: number, signal?: AbortSignal): Promise<AnalyticsParts | null> {
  const withRuns = filterParts(f).withRuns
  const overAll = level === ROLLUP_LEVEL.all
  const [sums, slowTop, costTop] = await Promise.all([
    rollupSums(f, level, signal),
    withRuns && overAll ? slowestFromRollup(f.status, signal) : Promise.resolve([]),
    withRuns && overAll ? rollupTop('cost', TOP_N, f.status, signal) : Promise.resolve([]),
  ])
  if (slowTop === null || costTop === null) return null
  let slow: TopRow[]
  let costliest: TopRow[]
  if (overAll) {
    slow = slowTop
    costliest = costTop.map((r) => ({ kind: 'costliest', ...r, last_write_text: null }))
  } else {
    // A filter the rollup answers carries no flags: the run rows' own values select the set.
    const rowConds = runRowConditions(f)
    ;[slow, costliest] = await Promise.all([
      slowCandidatesQuery(f, rowConds, signal),
      costliestQuery(f, rowConds, signal),
    ])
  }
  const sizes = new Map<number, number>()
  for (const r of sums.filter(isKind('size'))) sizes.set(r.bucket, (sizes.get(r.bucket) ?? 0) + r.runs)
  return {
    ...startedBuckets(sums),
    resumes: resumeDays(sums),
    sizes: [...sizes].map(([bucket, runs]) => ({ bucket, runs })),
    slow,
    costliest,
  }
}
