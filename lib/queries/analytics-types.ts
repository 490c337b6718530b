/** The runs-page analytics as the API sends them, and the parts either read path assembles them from. */
import { z } from 'zod'
import type { BucketUnit, ResumeDay } from './analytics-buckets'
import { rollupTopRowSchema } from './analytics-rollup'
export type { SizeBucket, TopRun, RunsAnalytics } from '../endpoints/runs'

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
