import 'server-only'
import { z } from 'zod'
import type { RunSummary } from '../endpoints/runs'
import { selectRows } from '../clickhouse/query'
import { join, param, sql, trusted, type Sql } from '../clickhouse/sql'
import { chTimeToIso, toChTime } from '../tables/time'
import { getConfig } from '../config'
import { ensureFresh } from '../derived/derive'
import { flagIndexNames } from '../derived/names'
import { links } from '../links'
import { CH_TIME_TYPE, identityConditions, statusCondition, timeConditions, where } from '../run-set/conditions'
import type { RunsFilter } from '../run-set/filter'
import type { RunsFilters } from '../runs-search'
import { cohortOf, COHORT_SAMPLE, groupCohorts, PROBLEM_FLAGS, sortCohorts } from '../cohorts/group'
import { isRunFlag, RUN_FLAGS, type RunFlag } from '../triage/flags'
import { listRuns } from './runs'
import { presentBlobsSql } from '../run-set/run-flags'
import { runIndexReady } from '../run-set/run-index'
import type { CohortsResponse } from '../endpoints/runs'
export type { CohortsResponse } from '../endpoints/runs'

/** Runs read per problem flag when the cohorts are grouped from list pages (a `q` filter, or no run index). */
export const COHORT_RUNS_PER_FLAG = 100

/** Cohorts returned unless a limit is asked (largest first). */
export const COHORTS_DEFAULT_LIMIT = 50

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
 * Troubled runs under the list's filter, grouped by what they share. With the run index, one
 * statement over its triage table (each run's flags as derived; missing_blob and stalled decided
 * now), exact however many runs there are; a `q` filter (which the triage table cannot judge)
 * groups flag-filtered list pages instead.
 */
export async function runCohorts(
  filter: RunsFilter,
  signal?: AbortSignal,
  limit = COHORTS_DEFAULT_LIMIT,
): Promise<CohortsResponse> {
  if (filter.q === undefined && (await runIndexReady(signal))) return cohortsFromTriage(filter, limit, signal)
  const all = await cohortsFromPages(filter, signal)
  return { ...all, cohorts: all.cohorts.slice(0, limit) }
}

const groupSchema = z.object({
  org: z.string(),
  namespace: z.string(),
  agent: z.string(),
  status: z.string(),
  problems: z.coerce.number(),
  runs: z.coerce.number(),
  first_at: z.string(),
  last_at: z.string(),
  sample: z.array(z.string()),
  total: z.coerce.number(),
})

/** Each flag's bit in a run's flag mask: its place in RUN_FLAGS. */
const bitOf = (f: RunFlag) => 1 << RUN_FLAGS.indexOf(f)
const maskOf = (flags: readonly RunFlag[]) => flags.reduce((m, f) => m | bitOf(f), 0)
const flagsOfMask = (mask: number) => RUN_FLAGS.filter((f) => (mask & bitOf(f)) !== 0)

/** The flag of a run as the triage row holds it (decided when derived), or decided at `now` (missing_blob, stalled). */
function flagSql(f: RunFlag, now: Sql): Sql {
  if (f === 'missing_blob')
    return trusted(
      "(blob_key != '' AND (org, namespace, agent, blob_key) NOT IN (SELECT org, namespace, agent, blob_key FROM blobs_present))",
    )
  if (f === 'stalled') return sql`(status = 'running' AND toUnixTimestamp64Milli(${now}) > stall_at_ms)`
  return trusted(`has(flags, '${f}')`)
}

async function cohortsFromTriage(filter: RunsFilter, limit: number, signal?: AbortSignal): Promise<CohortsResponse> {
  await ensureFresh()
  const triage = flagIndexNames(getConfig().databases.runs).triage
  const now = param('now', CH_TIME_TYPE, toChTime(new Date()))
  // Every flag the filter names must hold too (resumed included: the triage row decided it).
  const wanted = maskOf((filter.flag ?? []).filter(isRunFlag))
  const problems = maskOf(PROBLEM_FLAGS)
  // One bit per flag the run carries: grouping by a number costs the engine less than by a list of names.
  const mask = join(
    RUN_FLAGS.map((f) => sql`${flagSql(f, now)} * ${trusted(String(bitOf(f)))}`),
    ' + ',
  )
  const conditions = [
    ...identityConditions(filter),
    ...(filter.status !== undefined ? [statusCondition(filter.status)] : []),
    ...timeConditions(filter),
  ]
  const rows = await selectRows(
    // The largest groups, with every group tied with the last one (sorted exactly below), and how many groups there are.
    sql`WITH blobs_present AS (${await presentBlobsSql()})
    SELECT org, namespace, agent, status, bitAnd(mask, ${trusted(String(problems))}) AS problems, count() AS runs,
      toString(min(started_at)) AS first_at, toString(max(started_at)) AS last_at,
      arrayMap(x -> x.2, arraySlice(arrayReverseSort(groupArray((started_at, run_id))), 1, ${trusted(String(COHORT_SAMPLE))})) AS sample,
      count() OVER () AS total
    FROM (
      SELECT org, namespace, agent, run_id, status, started_at, toUInt8(${mask}) AS mask
      FROM ${trusted(triage)} FINAL ${where(conditions)}
    )
    WHERE problems != 0 AND bitAnd(mask, ${trusted(String(wanted))}) = ${trusted(String(wanted))}
    GROUP BY org, namespace, agent, status, problems
    ORDER BY runs DESC, max(started_at) DESC
    LIMIT ${param('limit', 'UInt32', limit)} WITH TIES`,
    groupSchema,
    { signal },
  )
  const base = asListFilters(filter)
  const cohorts = rows.map((r) =>
    cohortOf(
      {
        org: r.org,
        namespace: r.namespace,
        agent: r.agent,
        status: r.status,
        flags: flagsOfMask(r.problems),
        runs: r.runs,
        firstAt: chTimeToIso(r.first_at),
        lastAt: chTimeToIso(r.last_at),
        sample: r.sample.map((runId) => links.runKey({ org: r.org, namespace: r.namespace, agent: r.agent, runId })),
      },
      base,
    ),
  )
  return { cohorts: sortCohorts(cohorts).slice(0, limit), total: rows[0]?.total ?? 0, capped: [], searchedTo: null }
}

/** One flag-filtered page of the runs list per problem flag (so each cohort is exactly what its link lists), grouped here. */
async function cohortsFromPages(filter: RunsFilter, signal?: AbortSignal): Promise<CohortsResponse> {
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
  const cohorts = groupCohorts(runs, asListFilters(filter))
  return { cohorts, total: cohorts.length, capped, searchedTo: searchedTo || null }
}
