import { z } from 'zod'
import { AppError } from '../errors'
import { RUN_FLAGS } from '../triage/flags'

/** The runs list's filter as the query layer takes it (routes parse the URL into this shape). */
export const runsFilterSchema = z.object({
  org: z.string().optional(),
  namespace: z.string().optional(),
  agent: z.string().optional(),
  status: z.string().optional(),
  q: z.string().optional(),
  from: z.date().optional(),
  to: z.date().optional(),
  /** Runs that carry every one of these flags (lib/triage/flags.ts). */
  flag: z.array(z.enum(RUN_FLAGS)).optional(),
})

export type RunsFilter = z.infer<typeof runsFilterSchema>

/** org / namespace / agent: the part of a filter every Loom table's sorting key starts with. */
export type IdentityFilter = Pick<RunsFilter, 'org' | 'namespace' | 'agent'>

/**
 * Where the set is read from: the run index when it is installed (`auto`), else the union of
 * `loom.runs` and the checkpoint-only runs grouped from working memory on every request.
 */
export type RunsSource = 'auto' | 'index' | 'union'

/** Whether the filter admits runs with a `loom.runs` row, and checkpoint-only runs (status `unknown`). */
export function filterParts(f: RunsFilter) {
  return { withRuns: f.status !== 'unknown', withOrphans: f.status === undefined || f.status === 'unknown' }
}

/** True when the filter narrows more than the identity prefix does. */
export function narrowsBeyondIdentity(f: RunsFilter): boolean {
  return f.status !== undefined || f.q !== undefined || !!f.from || !!f.to || !!f.flag?.length
}

/** Flags are computed from the run index only: a flag filter without it is refused, not ignored. */
export function requireIndexForFlags(f: RunsFilter, indexed: boolean): void {
  if (f.flag?.length && !indexed) {
    throw new AppError(
      'unavailable',
      'flag filters need the run index, which is not installed here (run npm run db:init)',
      { details: { field: 'flag' } },
    )
  }
}
