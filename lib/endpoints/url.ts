/** The URL and the query key a client uses for one endpoint and its input. */
import type { AnyEndpoint, ClientInputOf } from './define'

/** Encodes one path segment so that any character (/, %, quotes, dots, non-ASCII) round-trips. */
export function encodeSegment(value: string): string {
  return encodeURIComponent(value).replace(/\./g, '%2E')
}

/**
 * A query's values as a query string: a list repeats its key; absent and empty values are left
 * out, as the server reads them.
 */
export function searchOf(query: object | undefined): URLSearchParams {
  const qs = new URLSearchParams()
  for (const [k, v] of Object.entries(query ?? {})) {
    if (Array.isArray(v)) for (const item of v) qs.append(k, String(item))
    else if (v !== undefined && v !== null && v !== '') qs.set(k, String(v))
  }
  return qs
}

/**
 * An endpoint's URL: its path with each `{param}` filled in (URL-encoded), then its query values
 * (a list repeats its key; absent and empty values are left out, as the server reads them).
 */
export function endpointUrl<E extends AnyEndpoint>(ep: E, input: ClientInputOf<E>): string {
  const params = (input.params ?? {}) as Record<string, string>
  const path = ep.path.replace(/\{(\w+)\}/g, (_, name: string) => encodeSegment(params[name] ?? ''))
  const qs = searchOf(input.query)
  return qs.size ? `${path}?${qs}` : path
}

/** The query key an endpoint gives this input (an endpoint the browser does not cache has none). */
export function endpointKey<E extends AnyEndpoint>(ep: E, input: ClientInputOf<E>): readonly unknown[] {
  if (!ep.client) throw new Error(`${ep.method} ${ep.path} is not a cached read`)
  return ep.client.key(input)
}
