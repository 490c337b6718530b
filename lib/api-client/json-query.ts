import { queryOptions, type QueryKey, type UseQueryOptions } from '@tanstack/react-query'
import { fetchJson } from './fetch-json'

/**
 * The query options of a read of one JSON route: the cache key, the route's URL (made when the
 * query runs, and the request cancelled with it), and any further options such as `staleTime`.
 */
export function jsonQuery<T, K extends QueryKey = QueryKey>(
  queryKey: K,
  url: () => string,
  more: Omit<UseQueryOptions<T, Error, T, K>, 'queryKey' | 'queryFn'> = {},
) {
  return queryOptions({ ...more, queryKey, queryFn: ({ signal }) => fetchJson<T>(url(), { signal }) })
}
