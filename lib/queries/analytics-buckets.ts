import type { BucketUnit, StatusBucket, ResumeDay } from '../endpoints/runs'
export type { BucketUnit, StatusBucket, ResumeDay } from '../endpoints/runs'
/** Time buckets of the runs-page charts: UTC hours or days, gaps filled with empty buckets. */

const HOUR = 3_600_000
const DAY = 24 * HOUR
/** Gaps are filled up to this many buckets; beyond, only buckets with runs are sent. */
export const MAX_FILLED_BUCKETS = 1500

const unitMs = (unit: BucketUnit) => (unit === 'hour' ? HOUR : DAY)
export const floorTo = (ms: number, unit: BucketUnit) => Math.floor(ms / unitMs(unit)) * unitMs(unit)

/** Consecutive bucket starts from `first` to `last` (inclusive), or null when there would be too many. */
function steps(first: number, last: number, unit: BucketUnit): number[] | null {
  const size = unitMs(unit)
  if (
    !Number.isFinite(first) ||
    !Number.isFinite(last) ||
    last < first ||
    (last - first) / size + 1 > MAX_FILLED_BUCKETS
  )
    return null
  const out: number[] = []
  for (let at = first; at <= last; at += size) out.push(at)
  return out
}

/**
 * Status counts per bucket, every bucket of the range present: from the filter's `from` (or the
 * first bucket with runs) to its `to` (or now, when only `from` is set; else the last bucket with runs).
 */
export function fillStatusBuckets(
  counts: { start: number; status: string; runs: number }[],
  unit: BucketUnit,
  range: { from?: Date; to?: Date; now: number },
): StatusBucket[] {
  const byStart = new Map<number, StatusBucket>()
  for (const c of counts) {
    const b = byStart.get(c.start) ?? { start: new Date(c.start).toISOString(), counts: {}, total: 0 }
    b.counts[c.status] = (b.counts[c.status] ?? 0) + c.runs
    b.total += c.runs
    byStart.set(c.start, b)
  }
  const starts = [...byStart.keys()].sort((a, b) => a - b)
  const first = Math.min(...(range.from ? [floorTo(range.from.getTime(), unit)] : []), ...starts.slice(0, 1))
  const last = Math.max(
    ...(range.from || range.to ? [floorTo(range.to?.getTime() ?? range.now, unit)] : []),
    ...starts.slice(-1),
  )
  return (steps(first, last, unit) ?? starts).map(
    (at) => byStart.get(at) ?? { start: new Date(at).toISOString(), counts: {}, total: 0 },
  )
}

/** Resumes per day over the days of the status chart (and any day with resumes), gaps filled. */
export function fillResumeDays(days: ResumeDay[], chartRange: [number, number] | null): ResumeDay[] {
  const byDay = new Map(days.map((d) => [Date.parse(`${d.day}T00:00:00Z`), d]))
  const known = [...byDay.keys(), ...(chartRange ? chartRange.map((t) => floorTo(t, 'day')) : [])]
  if (known.length === 0) return []
  const all = steps(Math.min(...known), Math.max(...known), 'day') ?? [...byDay.keys()].sort((a, b) => a - b)
  return all.map(
    (at) => byDay.get(at) ?? { day: new Date(at).toISOString().slice(0, 10), resumedRuns: 0, extraAttempts: 0 },
  )
}
