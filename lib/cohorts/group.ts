import type { RunSummary } from '../endpoints/runs'
import { links } from '../links'
import { normalFlags, type RunsFilters } from '../runs-search'
import { FLAG_TEXT, RUN_FLAGS, type RunFlag } from '../triage/flags'
import type { Cohort } from '../endpoints/runs'
export type { Cohort } from '../endpoints/runs'

/** The flags that make a run a problem: every flag but `resumed` (resuming is what runs are built to do). */
export const PROBLEM_FLAGS: readonly RunFlag[] = RUN_FLAGS.filter((f) => f !== 'resumed')

const runKeyOf = (r: Pick<RunSummary, 'org' | 'namespace' | 'agent' | 'runId'>) => links.runKey(r)

/** What a cohort is built from: its shared values, its size, its runs' first and last start, and its newest runs. */
export type CohortGroup = Pick<
  Cohort,
  'org' | 'namespace' | 'agent' | 'status' | 'flags' | 'runs' | 'firstAt' | 'lastAt' | 'sample'
>

/** The key a cohort is known by: the same wherever it is grouped. */
export const cohortKey = (g: Pick<Cohort, 'org' | 'namespace' | 'agent' | 'status' | 'flags'>) =>
  JSON.stringify([g.org, g.namespace, g.agent, g.status, g.flags])

/** A cohort with its key and the link to its list; `base` is the list's filter its runs were read under. */
export function cohortOf(g: CohortGroup, base: RunsFilters = {}): Cohort {
  return {
    key: cohortKey(g),
    ...g,
    // Fixed key order, so the same cohort gets the same link wherever it is grouped.
    href: links.runsList({
      org: g.org,
      namespace: g.namespace,
      agent: g.agent,
      status: g.status,
      q: base.q,
      from: base.from,
      to: base.to,
      flag: normalFlags([...(base.flag ?? []), ...g.flags]),
    }),
  }
}

/** Largest first, then the most recent, then by key. */
export function sortCohorts(cohorts: Cohort[]): Cohort[] {
  return cohorts.sort(
    (a, b) => b.runs - a.runs || (a.lastAt < b.lastAt ? 1 : a.lastAt > b.lastAt ? -1 : 0) || (a.key < b.key ? -1 : 1),
  )
}

/** The problem flags of a run's flags, in RUN_FLAGS order. */
export const problemFlags = (flags: readonly RunFlag[]): RunFlag[] =>
  RUN_FLAGS.filter((f) => PROBLEM_FLAGS.includes(f) && flags.includes(f))

/** How many runs a cohort names as its sample. */
export const COHORT_SAMPLE = 5

/**
 * Groups runs with at least one problem flag by agent (org, namespace, agent), status and their
 * problem flags; largest first, then the most recent. Runs without a problem flag are left out;
 * a run listed twice counts once. `base` is the list's filter the runs were read under.
 */
export function groupCohorts(runs: readonly RunSummary[], base: RunsFilters = {}): Cohort[] {
  const seen = new Set<string>()
  const groups = new Map<string, { runs: RunSummary[]; flags: RunFlag[] }>()
  for (const r of runs) {
    const id = runKeyOf(r)
    if (seen.has(id)) continue
    seen.add(id)
    const flags = problemFlags(r.flags)
    if (flags.length === 0) continue
    const key = cohortKey({ ...r, flags })
    const g = groups.get(key) ?? { runs: [], flags }
    g.runs.push(r)
    groups.set(key, g)
  }
  const cohorts = [...groups.values()].map((g): Cohort => {
    const first = g.runs[0]
    const started = g.runs.map((r) => r.startedAt).sort()
    const newest = [...g.runs].sort((a, b) => (a.startedAt < b.startedAt ? 1 : a.startedAt > b.startedAt ? -1 : 0))
    return cohortOf(
      {
        org: first.org,
        namespace: first.namespace,
        agent: first.agent,
        status: first.status,
        flags: g.flags,
        runs: g.runs.length,
        firstAt: started[0],
        lastAt: started[started.length - 1],
        sample: newest.slice(0, COHORT_SAMPLE).map(runKeyOf),
      },
      base,
    )
  })
  return sortCohorts(cohorts)
}

/** "14 runs of indexer (failed): crash loop + near miss" */
export function cohortText(c: Pick<Cohort, 'runs' | 'agent' | 'status' | 'flags'>): string {
  return `${c.runs} run${c.runs === 1 ? '' : 's'} of ${c.agent} (${c.status}): ${c.flags.map((f) => FLAG_TEXT[f].label).join(' + ')}`
}
