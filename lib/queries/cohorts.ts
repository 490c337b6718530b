import 'server-only'
import type { RunSummary } from '../api/types'
import type { RunsFilter } from '../run-set/filter'
import type { RunsFilters } from '../runs-search'
import { groupCohorts, PROBLEM_FLAGS, type Cohort } from '../triage/cohorts'
import type { RunFlag } from '../triage/flags'
import { listRuns } from './runs'

/** Runs read per problem flag: the same bounded page the "Needs attention" counts read. */
export const COHORT_RUNS_PER_FLAG = 100

export type CohortsResponse = {
  cohorts: Cohort[]
  /** Flags with more runs than were read (COHORT_RUNS_PER_FLAG): their cohorts count only the runs read. */
  capped: RunFlag[]
  /** Set when a flag's search stopped before the oldest run: runs started earlier were not checked. */
  searchedTo: string | null
}

/** The filter as the runs list's URL carries it (ISO times, sorted flags). */
function asListFilters(f: RunsFilter): RunsFilters {
  return {
    ...(f.org ? { org: f.org } : {}),
    ...(f.namespace ? { namespace: f.namespace } : {}),
    ...(f.agent ? { agent: f.agent } : {}),
    ...(f.status ? { status: f.status } : {}),
    ...(f.q ? { q: f.q } : {}),
    ...(f.from ? { from: f.from.toISOString() } : {}),
    ...(f.to ? { to: f.to.toISOString() } : {}),
    ...(f.flag?.length ? { flag: [...f.flag] } : {}),
  }
}

/**
 * Troubled runs under the list's filter, grouped by what they share: one flag-filtered page of the
 * runs list per problem flag (so each cohort is exactly what its link lists), grouped in memory.
 */
export async function runCohorts(filter: RunsFilter, signal?: AbortSignal): Promise<CohortsResponse> {
  const runs: RunSummary[] = []
  const capped: RunFlag[] = []
  let searchedTo = ''
  for (const flag of PROBLEM_FLAGS) {
    const flags = [...new Set([...(filter.flag ?? []), flag])]
    const page = await listRuns({ filter: { ...filter, flag: flags }, limit: COHORT_RUNS_PER_FLAG, signal })
    runs.push(...page.runs)
    // The latest stop of any flag's search: runs started before it were not all checked.
    if (page.searchedTo) searchedTo = searchedTo > page.searchedTo ? searchedTo : page.searchedTo
    else if (page.nextCursor) capped.push(flag)
  }
  return { cohorts: groupCohorts(runs, asListFilters(filter)), capped, searchedTo: searchedTo || null }
}
