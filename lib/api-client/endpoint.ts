import { queryOptions, type UseQueryOptions } from '@tanstack/react-query'
import type { AnyEndpoint, ClientInputOf, ResponseOf, SentBodyOf } from '../endpoints/define'
import { endpointKey, endpointUrl } from '../endpoints/url'
import { fetchJson, sendJson } from './fetch-json'

export { endpointKey, endpointUrl }

type Key = readonly unknown[]

/** Reads an endpoint once (no cache). */
export function fetchEndpoint<E extends AnyEndpoint, T = ResponseOf<E>>(
  ep: E,
  input: ClientInputOf<E>,
  signal?: AbortSignal,
): Promise<T> {
  return fetchJson<T>(endpointUrl(ep, input), { signal })
}

/**
 * The query options of a read: the endpoint's key and freshness, its URL (made when the query
 * runs, and the request cancelled with it), and any further options such as a refetch interval.
 */
export function endpointQuery<E extends AnyEndpoint, T = ResponseOf<E>>(
  ep: E,
  input: ClientInputOf<E>,
  more: Omit<UseQueryOptions<T, Error, T, Key>, 'queryKey' | 'queryFn'> = {},
) {
  const staleTime = ep.client?.staleTime
  return queryOptions({
    ...(staleTime === undefined ? {} : { staleTime }),
    ...more,
    queryKey: endpointKey(ep, input),
    queryFn: ({ signal }) => fetchEndpoint<E, T>(ep, input, signal),
  })
}

/** A write: the body (if the endpoint takes one) goes as JSON, the answer comes back as `fetchJson` reads it. */
export function sendEndpoint<E extends AnyEndpoint, T = ResponseOf<E>>(
  ep: E,
  input: ClientInputOf<E> & { body?: SentBodyOf<E> },
  signal?: AbortSignal,
): Promise<T> {
  const url = endpointUrl(ep, input)
  if (ep.method === 'GET') return fetchJson<T>(url, { signal })
  if (input.body === undefined) return fetchJson<T>(url, { method: ep.method, signal })
  return sendJson<T>(url, ep.method, input.body, signal)
}
