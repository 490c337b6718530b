/**
 * What one endpoint of the HTTP API is, in one place: its method and path, the schemas of what it
 * takes (path parameters, query string, JSON body) and of what it answers, who may call it, how
 * the OpenAPI document describes it, and, for a read the browser caches, its query key and how
 * long an answer stays fresh. The route handler, the client's fetch and query options and the
 * OpenAPI document are all made from these definitions.
 */
import type { z } from 'zod'

/**
 * Who may call an endpoint:
 * - `public`: anyone who reaches the console (the login, who am I, the OpenAPI document);
 * - `viewer`: any signed-in user (with no users configured: a loopback client);
 * - `signed-in-write`: a write to the console's own data any signed-in user may make (a saved view):
 *   same origin, not in read-only mode; the action checks the role where it matters;
 * - `operator`: a write to Loom's data: same origin, not in read-only mode, the operator role.
 */
export type Role = 'public' | 'viewer' | 'signed-in-write' | 'operator'

export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE'

export type ApiTag = 'runs' | 'checkpoint' | 'console' | 'auth' | 'views'

type Schema = z.ZodType
type Maybe = Schema | undefined

/** A schema's parsed value; undefined where the endpoint takes no such input. */
export type Parsed<S> = S extends Schema ? z.output<S> : undefined

/** Query values as a client gives them: text (the schema checks an enum's values on the server). */
type Sent<T> = { [K in keyof T]?: T[K] extends string | undefined ? string : T[K] }

/** What a client passes to build an endpoint's URL and key: its path parameters and query values. */
export type ClientInput<P extends Maybe, Q extends Maybe> = (P extends Schema
  ? { params: z.input<P> }
  : { params?: undefined }) &
  (Q extends Schema ? { query?: Sent<z.input<Q>> } : { query?: undefined })

export type Endpoint<
  P extends Maybe = Maybe,
  Q extends Maybe = Maybe,
  B extends Maybe = Maybe,
  R extends Maybe = Maybe,
  Ro extends Role = Role,
> = {
  method: Method
  /** In the OpenAPI form: `/api/runs/{org}/{namespace}/{agent}/{runId}`. */
  path: `/api/${string}`
  role: Ro
  /** Refuse a request sent from a page of another origin even though the role does not write. */
  sameOrigin?: boolean
  /** May be fetched from any site (the health check and the OpenAPI document). */
  crossSite?: boolean
  /** false: answers without waiting for the database. */
  database?: boolean
  params?: P
  query?: Q
  /** Query keys that may repeat, each read as an array (any other key keeps one value). */
  repeatable?: readonly string[]
  body?: B
  /** The JSON answer's shape; absent for a download or the OpenAPI document itself. */
  response?: R
  doc: {
    summary: string
    tag: ApiTag
    /** The error statuses it can answer. */
    errors: readonly number[]
    /** A download in this media type instead of JSON. */
    media?: 'text/csv' | 'text/markdown'
  }
  /** A read the browser caches: its query key (invalidation goes by prefix) and freshness. */
  client?: {
    key(input: ClientInput<P, Q>): readonly unknown[]
    staleTime?: number
  }
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyEndpoint = Endpoint<any, any, any, any, Role>

/** Declares an endpoint, keeping its schemas' types. */
export function endpoint<
  P extends Maybe = undefined,
  Q extends Maybe = undefined,
  B extends Maybe = undefined,
  R extends Maybe = undefined,
  Ro extends Role = Role,
>(e: Endpoint<P, Q, B, R, Ro>): Endpoint<P, Q, B, R, Ro> {
  return e
}

/* eslint-disable @typescript-eslint/no-explicit-any */
export type ParamsOf<E> = E extends Endpoint<infer P, any, any, any> ? Parsed<P> : never
export type QueryOf<E> = E extends Endpoint<any, infer Q, any, any> ? Parsed<Q> : never
export type BodyOf<E> = E extends Endpoint<any, any, infer B, any> ? Parsed<B> : never
export type ResponseOf<E> = E extends Endpoint<any, any, any, infer R> ? Parsed<R> : never
export type ClientInputOf<E> = E extends Endpoint<infer P, infer Q, any, any> ? ClientInput<P, Q> : never
/** A write's JSON body as the client sends it (before the schema's transforms). */
export type SentBodyOf<E> =
  E extends Endpoint<any, any, infer B, any> ? (B extends Schema ? z.input<B> : undefined) : never
/* eslint-enable @typescript-eslint/no-explicit-any */

/** One of an endpoint's input schemas, for code that checks the same input outside a route (the MCP tools). */
export function inputSchema<E extends AnyEndpoint, K extends 'params' | 'query' | 'body'>(
  ep: E,
  part: K,
): NonNullable<E[K]> {
  const schema = ep[part]
  if (!schema) throw new Error(`${ep.method} ${ep.path} takes no ${part}`)
  return schema as NonNullable<E[K]>
}
