import 'server-only'
import type { NextRequest } from 'next/server'
import {
  requireOperatorWrite,
  requireSameOrigin,
  requireSignedInWrite,
  requireViewer,
  type Principal,
} from '../auth/current'
import type { JsonText } from '../clickhouse/json-bytes'
import type { AnyEndpoint, BodyOf, ParamsOf, QueryOf, ResponseOf } from '../endpoints/define'
import { readJsonBody } from './body'
import { parseWith, route, searchParamsObject } from './handler'

/** What a handler of an endpoint gets: its input parsed with the endpoint's schemas, and who asks. */
export type ServedInput<E extends AnyEndpoint> = {
  params: ParamsOf<E>
  query: QueryOf<E>
  body: BodyOf<E>
  /** Null on a public endpoint. */
  who: E['role'] extends 'public' ? null : Principal
}

/**
 * What a handler answers: the endpoint's response shape, or JSON ClickHouse wrote (`JsonText`), or a
 * whole Response (a download, a cookie); anything for an endpoint without a JSON shape.
 */
type Reply<E extends AnyEndpoint> = E['response'] extends undefined ? unknown : ResponseOf<E> | JsonText | Response

type Options = {
  /** Runs after the role's checks and before the body is read (a refusal that does not depend on it). */
  before?: (req: NextRequest) => void | Promise<void>
}

/** The role's checks, in the order the API promises: same origin and read-only mode before the role. */
async function authorize(ep: AnyEndpoint, req: NextRequest, viewer: Principal | null): Promise<Principal | null> {
  if (ep.sameOrigin) requireSameOrigin(req)
  switch (ep.role) {
    case 'operator':
      return requireOperatorWrite(req)
    case 'signed-in-write':
      return requireSignedInWrite(req)
    case 'viewer':
      return viewer ?? requireViewer(req)
    default:
      return null
  }
}

/**
 * The handler of one endpoint: `route()`'s checks (host, cross-site, sign-in, readiness, the read
 * budget, derivation after writes) with the path parameters parsed, then the role's checks, the
 * query string and the JSON body parsed with the endpoint's schemas (a 400 names the field), and
 * the handler called with them.
 */
export function serve<E extends AnyEndpoint>(
  ep: E,
  handler: (input: ServedInput<E>, req: NextRequest) => Reply<E> | Promise<Reply<E>>,
  options: Options = {},
) {
  return route(
    ep.params ?? null,
    async (req, params, viewer) => {
      const who = await authorize(ep, req, viewer)
      const query = ep.query
        ? parseWith(ep.query, searchParamsObject(req, ep.repeatable ?? ['flag']), 'query')
        : undefined
      await options.before?.(req)
      const body = ep.body ? await readJsonBody(req, ep.body) : undefined
      return handler({ params, query, body, who } as ServedInput<E>, req)
    },
    { public: ep.role === 'public', database: ep.database, crossSite: ep.crossSite },
  )
}
