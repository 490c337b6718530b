import type { RunRef } from './loom/identity'
import { runsSearch, type RunsFilters } from './runs-search'

/** Encodes one path segment so that any character (/, %, quotes, dots, non-ASCII) round-trips. */
export function encodeSegment(value: string): string {
  return encodeURIComponent(value).replace(/\./g, '%2E')
}

function runSuffix(run: RunRef) {
  return [run.org, run.namespace, run.agent, run.runId].map(encodeSegment).join('/')
}

export const links = {
  runs: (search?: string) => (search ? `/?${search}` : '/'),
  /** The runs list under these filters (the first page). */
  runsList: (filters: RunsFilters) => {
    const qs = runsSearch(filters)
    return qs.size ? `/?${qs}` : '/'
  },
  run: (run: RunRef, query?: Record<string, string | undefined>) => {
    const qs = query ? new URLSearchParams(Object.entries(query).filter((e): e is [string, string] => !!e[1])).toString() : ''
    return `/runs/${runSuffix(run)}${qs ? `?${qs}` : ''}`
  },
  schema: () => '/schema',
  api: {
    health: () => '/api/health',
    schema: (refresh = false) => `/api/schema${refresh ? '?refresh=1' : ''}`,
    runs: (params: URLSearchParams) => `/api/runs${params.size ? `?${params}` : ''}`,
    run: (run: RunRef) => `/api/runs/${runSuffix(run)}`,
    blocks: (run: RunRef, opts: { content?: 'none' } = {}) => `/api/runs/${runSuffix(run)}/blocks${opts.content ? `?content=${opts.content}` : ''}`,
    block: (run: RunRef, blockKey: string, userId = '', sessionId = '') => {
      const qs = new URLSearchParams()
      if (userId) qs.set('userId', userId)
      if (sessionId) qs.set('sessionId', sessionId)
      return `/api/runs/${runSuffix(run)}/blocks/${encodeSegment(blockKey)}${qs.size ? `?${qs}` : ''}`
    },
    restore: (run: RunRef, blockKey: string, userId = '', sessionId = '') => {
      const qs = new URLSearchParams()
      if (userId) qs.set('userId', userId)
      if (sessionId) qs.set('sessionId', sessionId)
      return `/api/runs/${runSuffix(run)}/blocks/${encodeSegment(blockKey)}/restore${qs.size ? `?${qs}` : ''}`
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
