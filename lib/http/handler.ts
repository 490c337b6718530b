import 'server-only'
import { NextResponse, type NextRequest } from 'next/server'
import { z } from 'zod'
import { AppError } from '../errors'
import { classifyClickHouseError, queryStatsHeaders, withQueryStats } from '../clickhouse/query'
import { JsonText } from '../clickhouse/json-bytes'
import { ensureReady } from '../server/ready'
import { deriveAfterWrites } from '../derived/derive'
import { requestOrigin, requireViewer, type Principal } from '../auth/current'
import { withinReadBudget } from '../server/read-budget'
import type { ApiErrorBody } from '../endpoints/blocks'

type RouteContext<P> = { params: Promise<P> }

/** `viewer`: who is asking, as the route checked it (null on a public route). */
export type Handler<P> = (req: NextRequest, params: P, viewer: Principal | null) => Promise<unknown>

/** Field name of the first issue, for the error body. */
function issueField(issue: z.core.$ZodIssue): string | undefined {
  const p = issue.path.filter((x) => typeof x === 'string' || typeof x === 'number')
  return p.length ? p.join('.') : undefined
}

export function validationError(err: z.ZodError, where: string): AppError {
  const first = err.issues[0]
  if (first?.code === 'unrecognized_keys') {
    const keys = first.keys
    return new AppError('invalid', `unknown field${keys.length > 1 ? 's' : ''}: ${keys.join(', ')}`, {
      details: { field: keys[0] },
    })
  }
  if (first?.code === 'invalid_type' && first.path.length === 0) {
    return new AppError('invalid', `${where} must be a JSON object`, { details: { field: where } })
  }
  const field = first ? issueField(first) : undefined
  const message = first
    ? field && !first.message.startsWith(field)
      ? `${field}: ${first.message}`
      : first.message
    : `invalid ${where}`
  return new AppError('invalid', message, { details: { field } })
}

export function parseWith<S extends z.ZodType>(schema: S, input: unknown, where: string): z.infer<S> {
  const parsed = schema.safeParse(input)
  if (!parsed.success) throw validationError(parsed.error, where)
  return parsed.data
}

/**
 * Query string as a plain object; empty values count as absent. A key named in `repeatable`
 * (e.g. `flag`) becomes an array of its values; any other key keeps one value.
 */
export function searchParamsObject(
  req: NextRequest,
  repeatable: readonly string[] = ['flag'],
): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {}
  for (const [k, v] of req.nextUrl.searchParams) {
    if (v === '') continue
    if (repeatable.includes(k)) out[k] = [...((out[k] as string[] | undefined) ?? []), v]
    else out[k] = v
  }
  return out
}

export function errorResponse(err: unknown): NextResponse<ApiErrorBody> {
  const e = err instanceof AppError ? err : classifyClickHouseError(err)
  // A request the browser abandoned is not a server problem: keep it out of the error log.
  if (e.status >= 500 && !e.details?.aborted) console.error(`[loom-runs] ${e.code}: ${e.message}`, e.cause ?? '')
  const body: ApiErrorBody = { error: { code: e.code, message: e.message } }
  const field = e.details?.field
  if (typeof field === 'string') body.error.field = field
  if ('current' in (e.details ?? {})) body.current = e.details?.current as ApiErrorBody['current']
  const headers: Record<string, string> = { 'cache-control': 'no-store' }
  const retryAfter = e.details?.retryAfter
  if (typeof retryAfter === 'number') headers['retry-after'] = String(retryAfter)
  return NextResponse.json(body, { status: e.status, headers })
}

/**
 * Wraps a route: waits for the database to be ready, validates path params with the
 * given schema, runs the handler, and maps every failure to the contract's error body.
 */
export function route<S extends z.ZodType>(
  paramsSchema: S | null,
  handler: Handler<z.infer<S>>,
  options: { public?: boolean; database?: boolean; crossSite?: boolean } = {},
) {
  return async (req: NextRequest, ctx: RouteContext<unknown>) => {
    try {
      // The request gate refuses other hosts before Next runs; this holds even if it was bypassed.
      if (!requestOrigin(req).hostAllowed)
        throw new AppError('misdirected', 'This console does not answer to that host name')
      // A page of another site has no business with the API (reads and logins alike); only the
      // health check and the OpenAPI document may be fetched from anywhere.
      if (!options.crossSite && req.headers.get('sec-fetch-site') === 'cross-site') {
        throw new AppError(
          'forbidden',
          "Cross-site request refused: the console's API answers its own pages and scripts only",
        )
      }
      const viewer = options.public ? null : await requireViewer(req)
      const rawParams = ctx?.params ? await ctx.params : {}
      const params = paramsSchema ? parseWith(paramsSchema, rawParams, 'path') : (rawParams as z.infer<S>)
      if (options.database !== false) await ensureReady()
      // A write is derived before the answer, so the operator's next list read shows it; the batch's
      // own reads are not this request's and stay out of its figures.
      const run = () => deriveAfterWrites(() => withQueryStats(() => handler(req, params, viewer)))
      // A viewer's reads take turns within their own budget, so one viewer cannot hold the engine.
      const isRead = req.method === 'GET' || req.method === 'HEAD'
      const [result, stats] = viewer && isRead ? await withinReadBudget(viewer.name, req.signal, run) : await run()
      if (result instanceof Response) return result
      if (result instanceof JsonText) {
        return new NextResponse(result.bytes(), {
          headers: { 'content-type': 'application/json', 'cache-control': 'no-store', ...queryStatsHeaders(stats) },
        })
      }
      return NextResponse.json(result, { headers: { 'cache-control': 'no-store', ...queryStatsHeaders(stats) } })
    } catch (err) {
      return errorResponse(err)
    }
  }
}
