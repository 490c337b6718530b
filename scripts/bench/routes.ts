/**
 * The API routes the benchmark measures, and two ways to call them: over HTTP against the built
 * server, or in-process through the route handlers (used by the harness test: no build needed).
 * With LOOM_RUNS_BENCH=1 every response carries ClickHouse's own statistics for the request:
 * x-loom-rows-read, x-loom-ch-ms (engine time, summed over the request's queries), x-loom-query-ms
 * (the same queries timed from the server's side of the connection), x-loom-queries and
 * x-loom-max-statement-ms (the request's longest single statement: how long it held the engine).
 */
import http from 'node:http'
import { gunzipSync } from 'node:zlib'
import type { RunOwner } from '../../lib/api/types'

export type Sample = RunOwner & {
  blocks?: number
  turns?: number
  memories?: number
  searches?: number
}

export type RouteSpec = { route: string; kind: 'list' | 'run'; sample: string | null; path: string }

export type Reply = {
  status: number
  ms: number
  headers: Record<string, string>
  body: unknown
  bytes: number
  wireBytes?: number
}
export type Fetcher = (path: string) => Promise<Reply>

const enc = encodeURIComponent

export function runBase(s: Sample) {
  return `/api/runs/${enc(s.org)}/${enc(s.namespace)}/${enc(s.agent)}/${enc(s.runId)}`
}

/** Run-scoped routes of one sample run (a checkpoint-only run gets the routes it has data for). */
export function runRoutes(name: string, s: Sample, checkpointOnly = false): RouteSpec[] {
  const base = runBase(s)
  const ident = `userId=${enc(s.userId)}&sessionId=${enc(s.sessionId)}`
  const all: [string, string][] = [
    ['run', base],
    ['blocks', `${base}/blocks`],
    ['blocks (no content)', `${base}/blocks?content=none`],
    ['block versions', `${base}/blocks/checkpoint?${ident}`],
    // What a clear would make the agent redo: the clear dialog's foresight (target: ≤ 100 ms of engine time at 1M runs).
    ['replay preview', `${base}/blocks/checkpoint/replay?${ident}`],
    ['timeline', `${base}/timeline`],
    // The compare page's one request: this run beside its agent's last success before it.
    ['compare (last success)', `/api/compare?a=${enc([s.org, s.namespace, s.agent, s.runId].map(enc).join('/'))}`],
    ['conversations', `${base}/conversations`],
    ['memories', `${base}/memories`],
    ['searches', `${base}/searches`],
  ]
  const keep = checkpointOnly
    ? new Set([
        'run',
        'blocks',
        'blocks (no content)',
        'block versions',
        'replay preview',
        'timeline',
        'compare (last success)',
      ])
    : null
  return all
    .filter(([r]) => !keep || keep.has(r))
    .map(([route, path]) => ({ route: `${route} (${name})`, kind: 'run', sample: name, path }))
}

/** A route of the runs list (or what its page reads beside it). */
const list = (route: string, path: string): RouteSpec => ({ route, kind: 'list', sample: null, path })

export function listRoutes(
  filters: { org: string; status: string; q: string },
  cursors: { deep: string | null; mid: string | null },
  pollSince: string,
): RouteSpec[] {
  const out: RouteSpec[] = [list('runs page 1', '/api/runs?limit=50')]
  if (cursors.deep) out.push(list('runs deep page (cursor, page 21)', `/api/runs?limit=50&cursor=${cursors.deep}`))
  if (cursors.mid) out.push(list('runs mid-history (cursor)', `/api/runs?limit=50&cursor=${cursors.mid}`))
  out.push(
    list(`runs org=${filters.org}`, `/api/runs?limit=50&org=${enc(filters.org)}`),
    list(`runs status=${filters.status}`, `/api/runs?limit=50&status=${enc(filters.status)}`),
    list('runs status=unknown', '/api/runs?limit=50&status=unknown'),
    list(`runs q=${filters.q}`, `/api/runs?limit=50&q=${enc(filters.q)}`),
    // What the runs page asks for next to the list: its charts and its live-refresh poll.
    list('runs analytics', '/api/runs/analytics'),
    list(`runs analytics org=${filters.org}`, `/api/runs/analytics?org=${enc(filters.org)}`),
    list(`runs analytics status=${filters.status}`, `/api/runs/analytics?status=${enc(filters.status)}`),
    // Free text cannot use the rollup: the direct queries, for comparison.
    list(`runs analytics q=${filters.q}`, `/api/runs/analytics?q=${enc(filters.q)}`),
    list('runs changes (poll)', `/api/runs/changes?since=${enc(pollSince)}`),
    // Triage: flag filters (target: at most twice the unfiltered list) and type-ahead suggestions.
    list('runs flag=near_miss', '/api/runs?limit=50&flag=near_miss'),
    list('runs flag=resumed&flag=stalled', '/api/runs?limit=50&flag=resumed&flag=stalled'),
    list('runs flag=crash_loop', '/api/runs?limit=50&flag=crash_loop'),
    // Every other flag alone, so no flag's cost goes unreported.
    ...(['resumed', 'near_limit', 'tie', 'missing_blob', 'stalled'] as const).map((f): RouteSpec =>
      list(`runs flag=${f}`, `/api/runs?limit=50&flag=${f}`),
    ),
    // Troubled runs grouped (the "Needs attention" cohorts; target: ≤ 100 ms of engine time at 1M runs) and what changed.
    list('runs cohorts', '/api/runs/cohorts'),
    list(`runs cohorts org=${filters.org}`, `/api/runs/cohorts?org=${enc(filters.org)}`),
    list('events (what changed)', '/api/events'),
    list(
      `facets org prefix=${filters.org.slice(0, 2)}`,
      `/api/runs/facets?field=org&prefix=${enc(filters.org.slice(0, 2))}`,
    ),
  )
  return out
}

/** The benchmark's x-loom-* headers of a response. */
function loomHeaders(entries: Iterable<[string, unknown]>): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [k, v] of entries) if (k.startsWith('x-loom-') && typeof v === 'string') out[k] = v
  return out
}

/** A response's status, time since `started`, the benchmark's x-loom-* headers and its JSON body. */
async function readReply(res: Response, started: number): Promise<Reply> {
  const text = await res.text()
  const ms = performance.now() - started
  return {
    status: res.status,
    ms,
    headers: loomHeaders(res.headers.entries()),
    body: text ? JSON.parse(text) : null,
    bytes: Buffer.byteLength(text),
  }
}

const keepAlive = new http.Agent({ keepAlive: true, maxSockets: 1 })

/**
 * Over HTTP, asking for gzip as a browser does. The time is to the last byte as the server sent
 * it: inflating and decoding the body is the client's work and is left out (for a 6 MB answer
 * Node's fetch spends 20-30 ms on it, which a browser does natively and faster).
 */
export function httpFetcher(base: string): Fetcher {
  return (path) =>
    new Promise<Reply>((resolve, reject) => {
      const started = performance.now()
      const req = http.get(`${base}${path}`, { agent: keepAlive, headers: { 'accept-encoding': 'gzip' } }, (res) => {
        const chunks: Buffer[] = []
        res.on('data', (c: Buffer) => chunks.push(c))
        res.on('error', reject)
        res.on('end', () => {
          const ms = performance.now() - started
          const raw = Buffer.concat(chunks)
          const text = (res.headers['content-encoding'] === 'gzip' ? gunzipSync(raw) : raw).toString()
          try {
            resolve({
              status: res.statusCode ?? 0,
              ms,
              headers: loomHeaders(Object.entries(res.headers)),
              body: text ? JSON.parse(text) : null,
              bytes: Buffer.byteLength(text),
              wireBytes: raw.length,
            })
          } catch (err) {
            reject(err)
          }
        })
      })
      req.on('error', reject)
    })
}

type Handler = (req: import('next/server').NextRequest, ctx: { params: Promise<unknown> }) => Promise<Response>

/** Calls the route handlers in this process (needs LOOM_RUNS_DATA_DIR / LOOM_RUNS_BENCH set first). */
export async function inProcessFetcher(): Promise<Fetcher> {
  const { NextRequest } = await import('next/server')
  const { loopbackRequestHeaders } = await import('../../lib/net/peer')
  const R = '../../app/api/runs'
  const health = (await import('../../app/api/health/route')).GET as Handler
  const extra: Record<string, Handler> = {}
  for (const name of ['analytics', 'changes', 'facets', 'cohorts']) {
    try {
      extra[name] = (await import(`${'../../app/api/runs'}/${name}/route`)).GET as Handler
    } catch {
      /* not in this version of the app */
    }
  }
  const top: Record<string, Handler> = {
    '/api/events': (await import('../../app/api/events/route')).GET as Handler,
    '/api/compare': (await import('../../app/api/compare/route')).GET as Handler,
  }
  const mods = {
    list: (await import(`${R}/route`)).GET as Handler,
    replay: (await import(`${R}/[org]/[namespace]/[agent]/[runId]/blocks/[blockKey]/replay/route`)).GET as Handler,
    run: (await import(`${R}/[org]/[namespace]/[agent]/[runId]/route`)).GET as Handler,
    blocks: (await import(`${R}/[org]/[namespace]/[agent]/[runId]/blocks/route`)).GET as Handler,
    block: (await import(`${R}/[org]/[namespace]/[agent]/[runId]/blocks/[blockKey]/route`)).GET as Handler,
    timeline: (await import(`${R}/[org]/[namespace]/[agent]/[runId]/timeline/route`)).GET as Handler,
    conversations: (await import(`${R}/[org]/[namespace]/[agent]/[runId]/conversations/route`)).GET as Handler,
    memories: (await import(`${R}/[org]/[namespace]/[agent]/[runId]/memories/route`)).GET as Handler,
    searches: (await import(`${R}/[org]/[namespace]/[agent]/[runId]/searches/route`)).GET as Handler,
  }
  return async (path) => {
    const url = new URL(path, 'http://127.0.0.1:3000')
    const seg = url.pathname.split('/').slice(3).map(decodeURIComponent)
    let handler: Handler
    let params: Record<string, string> = {}
    if (url.pathname === '/api/health') handler = health
    else if (top[url.pathname]) handler = top[url.pathname]
    else if (seg.length === 1 && extra[seg[0]]) handler = extra[seg[0]]
    else if (seg.length === 0) handler = mods.list
    else {
      const [org, namespace, agent, runId, tail, blockKey, action] = seg
      params = { org, namespace, agent, runId }
      if (!tail) handler = mods.run
      else if (tail === 'blocks' && blockKey) {
        handler = action === 'replay' ? mods.replay : mods.block
        params.blockKey = blockKey
      } else handler = mods[tail as 'blocks' | 'timeline' | 'conversations' | 'memories' | 'searches']
      if (!handler) throw new Error(`no in-process route for ${path}`)
    }
    const started = performance.now()
    const res = await handler(new NextRequest(url, { headers: loopbackRequestHeaders() }), {
      params: Promise.resolve(params),
    })
    return readReply(res, started)
  }
}

export function quantile(xs: number[], q: number): number {
  if (xs.length === 0) return NaN
  const s = [...xs].sort((a, b) => a - b)
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil(q * s.length) - 1))]
}

export type RouteResult = {
  route: string
  kind: 'list' | 'run'
  sample: string | null
  path: string
  requests: number
  errors: number
  status: number
  p50Ms: number
  p95Ms: number
  /** ClickHouse's own elapsed time for the request's queries (median over the requests). */
  bareP50Ms: number | null
  /** The same queries timed inside the server, around each call (connection, transfer, parsing). */
  queryP50Ms: number | null
  /** ClickHouse statistics.rows_read summed over the request's queries (median; max below). */
  rowsRead: number | null
  rowsReadMax: number | null
  queries: number | null
  /** The longest single statement of a request (ClickHouse's elapsed): median over the requests, and the max. */
  maxStatementP50Ms: number | null
  maxStatementMs: number | null
  bytes: number
  /** The body as sent (gzip where the server compressed it); null in process. */
  wireBytes: number | null
  /** API median over bare median. */
  ratio: number | null
}

const r2 = (n: number) => Math.round(n * 100) / 100

/** Warmup, then `requests` sequential requests; medians and p95 of what came back. */
export async function measure(
  fetcher: Fetcher,
  spec: RouteSpec,
  requests: number,
  warmup: number,
): Promise<RouteResult> {
  for (let i = 0; i < warmup; i++) await fetcher(spec.path)
  const ms: number[] = []
  const ch: number[] = []
  const qms: number[] = []
  const rows: number[] = []
  const longest: number[] = []
  let queries: number | null = null
  let errors = 0
  let status = 0
  let bytes = 0
  let wireBytes: number | null = null
  for (let i = 0; i < requests; i++) {
    const r = await fetcher(spec.path)
    status = r.status
    bytes = r.bytes
    wireBytes = r.wireBytes ?? null
    if (r.status !== 200) errors++
    ms.push(r.ms)
    if (r.headers['x-loom-ch-ms'] !== undefined) ch.push(Number(r.headers['x-loom-ch-ms']))
    if (r.headers['x-loom-query-ms'] !== undefined) qms.push(Number(r.headers['x-loom-query-ms']))
    if (r.headers['x-loom-rows-read'] !== undefined) rows.push(Number(r.headers['x-loom-rows-read']))
    if (r.headers['x-loom-queries'] !== undefined) queries = Number(r.headers['x-loom-queries'])
    if (r.headers['x-loom-max-statement-ms'] !== undefined) longest.push(Number(r.headers['x-loom-max-statement-ms']))
  }
  const p50 = quantile(ms, 0.5)
  const bare = ch.length ? quantile(ch, 0.5) : null
  return {
    route: spec.route,
    kind: spec.kind,
    sample: spec.sample,
    path: spec.path,
    requests,
    errors,
    status,
    p50Ms: r2(p50),
    p95Ms: r2(quantile(ms, 0.95)),
    bareP50Ms: bare === null ? null : r2(bare),
    queryP50Ms: qms.length ? r2(quantile(qms, 0.5)) : null,
    rowsRead: rows.length ? quantile(rows, 0.5) : null,
    rowsReadMax: rows.length ? Math.max(...rows) : null,
    queries,
    maxStatementP50Ms: longest.length ? r2(quantile(longest, 0.5)) : null,
    maxStatementMs: longest.length ? r2(Math.max(...longest)) : null,
    bytes,
    wireBytes,
    ratio: bare ? r2(p50 / bare) : null,
  }
}

/** The API requests each default page makes (the run page opens on its Checkpoint tab). */
export function pageRoutes(samples: string[]): { page: string; routes: string[] }[] {
  return [
    { page: 'runs page', routes: ['runs page 1', 'runs analytics', 'runs changes (poll)'] },
    ...samples.map((s) => ({
      page: `run page, checkpoint tab (${s})`,
      routes: [`run (${s})`, `blocks (no content) (${s})`, `block versions (${s})`],
    })),
  ]
}

export type PageStatement = {
  page: string
  longestStatementMs: number | null
  longestStatementP50Ms: number | null
  route: string | null
}

/** Per page, the longest statement any of its requests issued, and which request issued it. */
export function longestStatementPerPage(
  results: RouteResult[],
  pages: { page: string; routes: string[] }[],
): PageStatement[] {
  return pages.map(({ page, routes }) => {
    const mine = results.filter((r) => routes.includes(r.route) && r.maxStatementMs !== null)
    if (!mine.length) return { page, longestStatementMs: null, longestStatementP50Ms: null, route: null }
    const worst = mine.reduce((a, b) => ((b.maxStatementMs ?? 0) > (a.maxStatementMs ?? 0) ? b : a))
    return {
      page,
      longestStatementMs: worst.maxStatementMs,
      longestStatementP50Ms: Math.max(...mine.map((r) => r.maxStatementP50Ms ?? 0)),
      route: worst.route,
    }
  })
}
