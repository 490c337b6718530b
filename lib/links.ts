import { endpoints } from './endpoints/api'
import { encodeSegment, endpointUrl } from './endpoints/url'
import type { RunRef } from './loom/identity'
import { runsSearch, type RunsFilters } from './runs-search'

export { encodeSegment }

function runSuffix(run: RunRef) {
  return [run.org, run.namespace, run.agent, run.runId].map(encodeSegment).join('/')
}

function withQuery(path: string, qs: URLSearchParams) {
  return qs.size ? `${path}?${qs}` : path
}

/** The filter fields a suggestion request narrows by, besides the field itself. */
export type FacetsParams = { field: 'org' | 'namespace' | 'agent'; prefix?: string; org?: string; namespace?: string }

/** Suggestions a filter box shows at most. */
export const FACETS_LIMIT = '8'

export const links = {
  runs: (search?: string) => (search ? `/?${search}` : '/'),
  /** The runs list under these filters (the first page). */
  runsList: (filters: RunsFilters) => withQuery('/', runsSearch(filters)),
  /** A saved view: the runs page opens with its filter. */
  savedView: (id: string) => `/?view=${encodeURIComponent(id)}`,
  /** A run as one text: `org/namespace/agent/runId` with URL-encoded segments (as the API takes it). */
  runKey: (run: RunRef) => runSuffix(run),
  run: (run: RunRef, query?: Record<string, string | undefined>) => {
    const qs = new URLSearchParams(Object.entries(query ?? {}).filter((e): e is [string, string] => !!e[1]))
    return withQuery(`/runs/${runSuffix(run)}`, qs)
  },
  schema: () => '/schema',
  /** Two runs side by side; without `b`, the same agent's last succeeded run before `a`. */
  compare: (a: RunRef, b?: RunRef) =>
    withQuery('/compare', new URLSearchParams({ a: runSuffix(a), ...(b ? { b: runSuffix(b) } : {}) })),
  /** The console-wide audit page, with its filters. */
  audit: (filters: Record<string, string | undefined> = {}) =>
    withQuery('/audit', new URLSearchParams(Object.entries(filters).filter((e): e is [string, string] => !!e[1]))),
  login: () => '/login',
  /** The API's URLs the pages link to or name (downloads, copies); every fetch takes its URL from the endpoint. */
  api: {
    compare: (a: string, b?: string) => endpointUrl(endpoints.compare, { query: { a, ...(b ? { b } : {}) } }),
    /** Summary charts of the runs list under these filters. */
    runsAnalytics: (filters: RunsFilters) => endpointUrl(endpoints.analytics, { query: filters }),
    /** Runs under these filters written after `since` (the previous poll's watermark). */
    runChanges: (filters: RunsFilters, since?: string) =>
      endpointUrl(endpoints.changes, { query: { ...filters, since } }),
    consoleAudit: (params: URLSearchParams) => endpointUrl(endpoints.audit, { query: Object.fromEntries(params) }),
    runsCsv: (filters: RunsFilters) => endpointUrl(endpoints.runsCsv, { query: filters }),
    runFacets: (params: FacetsParams) => endpointUrl(endpoints.facets, { query: { ...params, limit: FACETS_LIMIT } }),
    run: (run: RunRef) => endpointUrl(endpoints.run, { params: run }),
    incident: (run: RunRef) => endpointUrl(endpoints.incident, { params: run }),
    block: (run: RunRef, blockKey: string, userId = '', sessionId = '') =>
      endpointUrl(endpoints.block, { params: { ...run, blockKey }, query: { userId, sessionId } }),
    restore: (run: RunRef, blockKey: string, userId = '', sessionId = '') =>
      endpointUrl(endpoints.restoreBlock, { params: { ...run, blockKey }, query: { userId, sessionId } }),
    timeline: (run: RunRef, limit?: number) =>
      endpointUrl(endpoints.timeline, { params: run, query: limit ? { limit: String(limit) } : {} }),
    memories: (run: RunRef) => endpointUrl(endpoints.memories, { params: run }),
    export: (run: RunRef) => endpointUrl(endpoints.export, { params: run }),
  },
}
