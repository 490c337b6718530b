/** The runs-page analytics as the API sends them, and the parts either read path assembles them from. */
import { z } from 'zod'
import type { ActiveTime } from './active-time'
import type { BucketUnit, ResumeDay, StatusBucket } from './analytics-buckets'
import { rollupTopRowSchema } from './analytics-rollup'

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
export const TOP_N = 5
/**
 * Slowest runs are ranked by active time among this many runs with the longest wall-clock
 * durations (active time never exceeds the duration, so a run outside them could only enter the
 * top five if more than this many long runs were mostly idle).
 */
export const SLOW_CANDIDATES = 200
export const HOUR = 3_600_000

export const sizeRowSchema = z.object({ bucket: z.coerce.number(), runs: z.coerce.number() })
export type SizeRow = z.infer<typeof sizeRowSchema>

/** A top run as the direct queries read it (the costliest query reads no begin, end or last write). */
export const topRowSchema = rollupTopRowSchema.extend({
  kind: z.enum(['slowest', 'costliest']),
  attempt: z.coerce.number().default(1),
  last_begin_text: z.string().default(''),
  completed_text: z.string().nullable().default(null),
  last_write_text: z.string().nullable().default(null),
})
export type TopRow = z.infer<typeof topRowSchema>

/** What the analytics are assembled from, whichever path read it. */
export type AnalyticsParts = {
  unit: BucketUnit
  started: { start: number; status: string; runs: number }[]
  resumes: ResumeDay[]
  sizes: SizeRow[]
  slow: TopRow[]
  costliest: TopRow[]
}
