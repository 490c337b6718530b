/**
 * The runs list's URL state as one value, shared by the runs page (client), its server render and
 * every link to a filtered list, so the page, the query keys and the links always agree.
 * `flag` repeats in the URL (`?flag=a&flag=b`); every other field appears at most once.
 */
import { RUN_STATUSES } from './endpoints/vocabulary'
import { RUN_FLAGS, type RunFlag } from './triage/flags'

export { RUN_STATUSES }

/** Runs per page of the runs list. */
export const RUNS_PAGE_SIZE = 50

export type RunsFilters = {
  org?: string
  namespace?: string
  agent?: string
  status?: string
  q?: string
  from?: string
  to?: string
  /** Sorted, without repeats: a query key that does not depend on the order they were picked in. */
  flag?: RunFlag[]
}

export type RunsListParams = RunsFilters & { cursor?: string; limit?: string }

/** Only known flags, in RUN_FLAGS order; undefined when there are none. */
export function normalFlags(values: readonly string[] | null | undefined): RunFlag[] | undefined {
  const set = new Set(values ?? [])
  const out = RUN_FLAGS.filter((f) => set.has(f))
  return out.length ? out : undefined
}

/** The list's filters from URL-shaped values (null or '' count as absent). */
export function runsFilters(v: {
  org?: string | null
  namespace?: string | null
  agent?: string | null
  status?: string | null
  q?: string | null
  from?: string | null
  to?: string | null
  flag?: readonly string[] | null
}): RunsFilters {
  const out: RunsFilters = {}
  for (const k of ['org', 'namespace', 'agent', 'q', 'from', 'to'] as const) if (v[k]) out[k] = v[k] as string
  if (v.status && (RUN_STATUSES as readonly string[]).includes(v.status)) out.status = v.status
  const flag = normalFlags(v.flag)
  if (flag) out.flag = flag
  return out
}

/** The query of one page of the list: the filters, the cursor and the page size. */
export function runsListParams(filters: RunsFilters, cursor?: string | null): RunsListParams {
  return { ...filters, ...(cursor ? { cursor } : {}), limit: String(RUNS_PAGE_SIZE) }
}

/** As a query string: `flag` repeated, other fields once, absent ones left out. */
export function runsSearch(params: RunsListParams & Record<string, string | string[] | undefined>): URLSearchParams {
  const qs = new URLSearchParams()
  for (const [k, v] of Object.entries(params)) {
    if (Array.isArray(v)) for (const item of v) qs.append(k, item)
    else if (v) qs.set(k, v)
  }
  return qs
}

/** The same filters, narrowed to the runs that also carry `flag`. */
export function withFlag(filters: RunsFilters, flag: RunFlag): RunsFilters {
  return { ...filters, flag: normalFlags([...(filters.flag ?? []), flag]) }
}
