import type { RunRef } from './loom/identity'
import { runsSearch, type RunsFilters } from './runs-search'

/** Encodes one path segment so that any character (/, %, quotes, dots, non-ASCII) round-trips. */
export function encodeSegment(value: string): string {
  return encodeURIComponent(value).replace(/\./g, '%2E')
}

function runSuffix(run: RunRef) {
  return [run.org, run.namespace, run.agent, run.runId].map(encodeSegment).join('/')
}

function withQuery(path: string, qs: URLSearchParams) {
  return qs.size ? `${path}?${qs}` : path
}

/** A block's route; the writer identity travels in the query so the default identity keeps a short URL. */
function blockPath(run: RunRef, blockKey: string, userId: string, sessionId: string, action = '') {
  const qs = new URLSearchParams()
  if (userId) qs.set('userId', userId)
  if (sessionId) qs.set('sessionId', sessionId)
  return withQuery(`/api/runs/${runSuffix(run)}/blocks/${encodeSegment(blockKey)}${action}`, qs)
}

/** The filter fields a suggestion request narrows by, besides the field itself. */
export type FacetsParams = { field: 'org' | 'namespace' | 'agent'; prefix?: string; org?: string; namespace?: string }

/** Suggestions a filter box shows at most. */
const FACETS_LIMIT = '8'

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
  api: {
    health: () => '/api/health',
    schema: (refresh = false) => `/api/schema${refresh ? '?refresh=1' : ''}`,
    me: () => '/api/auth/me',
    login: () => '/api/auth/login',
    logout: () => '/api/auth/logout',
    batches: () => '/api/batches',
    batch: (batchId: string) => `/api/batches/${encodeURIComponent(batchId)}`,
    undoBatch: (batchId: string) => `/api/batches/${encodeURIComponent(batchId)}/undo`,
    runs: (params: URLSearchParams) => withQuery('/api/runs', params),
    /** Summary charts of the runs list under these filters. */
    compare: (a: string, b?: string) => withQuery('/api/compare', new URLSearchParams({ a, ...(b ? { b } : {}) })),
    runsAnalytics: (filters: RunsFilters) => withQuery('/api/runs/analytics', runsSearch(filters)),
    events: (q: { from?: string; to?: string; org?: string; namespace?: string; agent?: string }) =>
      withQuery('/api/events', new URLSearchParams(Object.entries(q).filter((e): e is [string, string] => !!e[1]))),
    /** Runs under these filters written after `since` (the previous poll's watermark). */
    runChanges: (filters: RunsFilters, since?: string) =>
      withQuery('/api/runs/changes', runsSearch({ ...filters, since })),
    consoleAudit: (params: URLSearchParams) => withQuery('/api/audit', params),
    runsCsv: (filters: RunsFilters) => withQuery('/api/runs/csv', runsSearch(filters)),
    runFacets: (params: FacetsParams) => withQuery('/api/runs/facets', runsSearch({ ...params, limit: FACETS_LIMIT })),
    run: (run: RunRef) => `/api/runs/${runSuffix(run)}`,
    views: () => '/api/views',
    view: (id: string) => `/api/views/${encodeURIComponent(id)}`,
    viewDeliveries: (id: string) => `/api/views/${encodeURIComponent(id)}/deliveries`,
    viewTest: (id: string) => `/api/views/${encodeURIComponent(id)}/test`,
    incident: (run: RunRef) => `/api/runs/${runSuffix(run)}/incident.md`,
    blocks: (run: RunRef, opts: { content?: 'none' } = {}) =>
      `/api/runs/${runSuffix(run)}/blocks${opts.content ? `?content=${opts.content}` : ''}`,
    block: (run: RunRef, blockKey: string, userId = '', sessionId = '') => blockPath(run, blockKey, userId, sessionId),
    restore: (run: RunRef, blockKey: string, userId = '', sessionId = '') =>
      blockPath(run, blockKey, userId, sessionId, '/restore'),
    /** The replay preview of going back to `toVersion` (null: a clear). */
    replay: (run: RunRef, blockKey: string, userId: string, sessionId: string, toVersion: string | null) => {
      const url = blockPath(run, blockKey, userId, sessionId, '/replay')
      return toVersion === null
        ? url
        : `${url}${url.includes('?') ? '&' : '?'}toVersion=${encodeURIComponent(toVersion)}`
    },
    audit: (run: RunRef) => `/api/runs/${runSuffix(run)}/audit`,
    timeline: (run: RunRef, limit?: number) => `/api/runs/${runSuffix(run)}/timeline${limit ? `?limit=${limit}` : ''}`,
    conversations: (run: RunRef) => `/api/runs/${runSuffix(run)}/conversations`,
    memories: (run: RunRef) => `/api/runs/${runSuffix(run)}/memories`,
    searches: (run: RunRef) => `/api/runs/${runSuffix(run)}/searches`,
    blobs: (run: RunRef) => `/api/runs/${runSuffix(run)}/blobs`,
    export: (run: RunRef) => `/api/runs/${runSuffix(run)}/export`,
  },
}
