/**
 * FOR TESTS ONLY: a minimal stand-in for a ClickHouse server, speaking the subset of ClickHouse's
 * HTTP interface that @clickhouse/client 1.23 uses, backed by the real embedded engine (chdb) on a
 * data directory. It lets a test run the app in remote mode (CLICKHOUSE_URL) on a machine without
 * a ClickHouse server, and stop and restart "the server" on the same port and data.
 *
 *   node --conditions=react-server --import tsx tests/helpers/clickhouse-http-peer.ts <dataDir> <port>
 *
 * Prints `listening <port>` on stdout once ready; exits 0 on SIGTERM or SIGINT.
 *
 * Served: `GET /ping` and `GET /` ("Ok."); `POST /` with the SQL in the body (client.query,
 * client.command) or in the `query` URL parameter with the INSERT data in the body (client.insert,
 * client.exec with values); `GET /?query=` (ping with select). URL parameters: `query_id`,
 * `database`, `default_format`, `param_<name>`, every other one is a setting for this request only.
 * Basic auth (or X-ClickHouse-User/-Key, or user/password URL parameters) against PEER_USER
 * (default `default`) / PEER_PASSWORD (default empty). gzip request bodies; gzip responses when
 * `enable_http_compression=1` and the client accepts gzip. Results are buffered, then sent with
 * X-ClickHouse-Query-Id, -Format, -Timezone and -Summary. Errors: ClickHouse's text
 * `Code: N. DB::Exception: ... (NAME) (version V)`, the X-ClickHouse-Exception-Code header and
 * roughly the server's HTTP status for that code.
 * Not served: multipart parameters, sessions (session_id), roles, progress headers, streaming.
 * Unlike a server it runs GET queries without read-only mode, and several statements per request.
 */
import http from 'node:http'
import { randomUUID } from 'node:crypto'
import { Readable } from 'node:stream'
import zlib from 'node:zlib'
import { createClient, TupleParam, type ClickHouseClient, type DataFormat } from '@clickhouse/client'

type ConnectionParam = NonNullable<Parameters<typeof createClient>[0]>['connection']
type PeerError = { code: string; type: string; message: string }

const [dataDir, portArg] = process.argv.slice(2)
if (!dataDir || !/^\d+$/.test(portArg ?? '')) {
  console.error('usage: clickhouse-http-peer.ts <dataDir> <port>')
  process.exit(2)
}
const port = Number(portArg)
const USER = process.env.PEER_USER ?? 'default'
const PASSWORD = process.env.PEER_PASSWORD ?? ''

/** URL parameters the HTTP layer consumes; any other (but param_*) is a query setting. */
const HTTP_PARAMS = new Set([
  'query',
  'query_id',
  'database',
  'default_format',
  'session_id',
  'session_timeout',
  'session_check',
  'role',
  'user',
  'password',
  'quota_key',
  'compress',
  'decompress',
  'buffer_size',
  'wait_end_of_query',
  'enable_http_compression',
  'http_zlib_compression_level',
  'send_progress_in_http_headers',
  'http_headers_progress_interval_ms',
  'http_response_buffer_size',
  'http_send_progress_interval_ms',
  'http_response_compression_method',
  'http_native_compression_disable_checksumming_on_decompress',
])

/** ClickHouse answers these error codes with these HTTP statuses (HTTPHandler); anything else is 500. */
const HTTP_STATUS: Record<string, number> = {
  '516': 401,
  '192': 401,
  '193': 401,
  '194': 401,
  '164': 403,
  '497': 403,
  '46': 404,
  '47': 404,
  '60': 404,
  '81': 404,
  '6': 400,
  '26': 400,
  '27': 400,
  '62': 400,
  '456': 400,
  '457': 400,
}

const peerError = (code: string, type: string, message: string): PeerError => ({ code, type, message })

// --- Query parameters --------------------------------------------------------------------------
// The HTTP client sends each `param_x` already in ClickHouse's escaped text form. chdb's
// query_params take values, not text: it escapes every value itself (chdb/dist/serialize.js
// formatParamValue). So each text is decoded to the value the server would bind, and chdb encodes
// it again: the engine binds the same value a real server would (for composite literals even the
// same bytes; a top-level String may differ in spelling only, e.g. `\'` arrives as `'`).

/** ClickHouse's escape sequences (parseComplexEscapeSequence), decoded on the UTF-8 bytes. */
const ESCAPES: Record<string, string> = {
  a: '\x07',
  b: '\b',
  e: '\x1b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
  v: '\v',
  '0': '\0',
  N: '',
}
function unescape(text: string): string {
  const bytes = Buffer.from(text, 'utf8').toString('latin1')
  const decoded = bytes.replace(/\\(x[0-9A-Fa-f]{2}|[\s\S])/g, (_, e: string) => {
    if (e.length === 3) return String.fromCharCode(parseInt(e.slice(1), 16))
    if (e in ESCAPES) return ESCAPES[e]
    // An unknown escape keeps its backslash, except before these and control characters.
    return '\\\'"`/='.includes(e) || e < ' ' ? e : `\\${e}`
  })
  return Buffer.from(decoded, 'latin1').toString('utf8')
}

/** Parses a composite literal (`[...]`, `(...)`, `'quoted'`, NULL, TRUE/FALSE, numbers) into values. */
function parseLiteral(name: string, text: string): unknown {
  let i = 0
  const bad = () =>
    peerError(
      '457',
      'BAD_QUERY_PARAMETER',
      `Value ${text} for query parameter '${name}' is not a literal this test peer can forward`,
    )
  const ws = () => {
    while (text[i] === ' ') i++
  }
  const value = (): unknown => {
    ws()
    const open = text[i]
    if (open === '[' || open === '(') {
      const close = open === '[' ? ']' : ')'
      const items: unknown[] = []
      i++
      ws()
      while (text[i] !== close) {
        items.push(value())
        ws()
        if (text[i] === ',') i++
        else if (text[i] !== close) throw bad()
      }
      i++
      return open === '[' ? items : new TupleParam(items)
    }
    if (open === "'") {
      let raw = ''
      for (i++; ; i++) {
        if (i >= text.length) throw bad()
        if (text[i] === '\\') raw += text[i++] + text[i]
        else if (text[i] === "'" && text[i + 1] === "'")
          raw += text[i++] // SQL-style doubled quote
        else if (text[i] === "'") break
        else raw += text[i]
      }
      i++
      return unescape(raw)
    }
    const token = /^[^,\])\s]+/.exec(text.slice(i))?.[0] ?? ''
    i += token.length
    if (/^NULL$/i.test(token)) return null
    if (/^(TRUE|FALSE)$/i.test(token)) return token.toUpperCase() === 'TRUE'
    if (/^-?\d+$/.test(token)) return BigInt(token)
    if (token !== '' && String(Number(token)) === token) return Number(token)
    throw bad()
  }
  const result = value()
  ws()
  if (i !== text.length) throw bad()
  return result
}

const STRING_TYPE = /^(?:(?:Nullable|LowCardinality)\()*(?:String|FixedString\(\d+\))\)*$/

/** The value for chdb's query_params that makes the engine bind what a server would from `text`. */
function paramValue(name: string, text: string, type: string | undefined): unknown {
  if (text === '\\N') return null // chdb sends null as `\N` again
  if (type && STRING_TYPE.test(type.replace(/\s+/g, ''))) {
    // The server reads a String parameter as one TSV field: a raw TAB or newline ends it.
    if (/[\t\n]/.test(text)) {
      throw peerError(
        '457',
        'BAD_QUERY_PARAMETER',
        `Value ${text} cannot be parsed as ${type} for query parameter '${name}' because it isn't parsed completely`,
      )
    }
    return unescape(text)
  }
  // Text without backslashes or control characters passes through chdb unchanged.
  if (!/[\\\x00-\x1f]/.test(text)) return text
  return parseLiteral(name, text)
}

function queryParams(sql: string, search: URLSearchParams): Record<string, unknown> {
  const types = new Map<string, string>()
  for (const m of sql.matchAll(/\{\s*([A-Za-z_]\w*)\s*:\s*([^{}]+?)\s*\}/g)) types.set(m[1], m[2])
  const params: Record<string, unknown> = {}
  for (const [key, text] of search) {
    if (key.startsWith('param_')) params[key.slice(6)] = paramValue(key.slice(6), text, types.get(key.slice(6)))
  }
  return params
}

// --- Requests ----------------------------------------------------------------------------------

/**
 * Settings are per request on a server but per session in chdb: each request resets to their
 * defaults the settings an earlier request set and this one does not. Only names the engine
 * knows are tracked.
 */
const knownSettings = new Set<string>()
const settingsInSession = new Set<string>()

/**
 * One query at a time: the session's settings are shared, and chdb 3.4.0 hands the partial output
 * of a failed query (e.g. the JSON header before a timeout) to the next query of the session, so
 * after a failure a throwaway query takes it.
 */
let queue: Promise<unknown> = Promise.resolve()
function oneAtATime<T>(client: ClickHouseClient, work: () => Promise<T>): Promise<T> {
  const next = queue.then(work).catch(async (err: unknown) => {
    await client.exec({ query: 'SELECT 1 FORMAT Null' }).then(
      (r) => r.stream.toArray(),
      () => undefined,
    )
    throw err
  })
  queue = next.catch(() => undefined)
  return next
}

async function readBody(req: http.IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = []
  for await (const chunk of req) chunks.push(chunk as Buffer)
  const body = Buffer.concat(chunks)
  return req.headers['content-encoding'] === 'gzip' ? zlib.gunzipSync(body) : body
}

function authorized(req: http.IncomingMessage, search: URLSearchParams) {
  let user = (req.headers['x-clickhouse-user'] as string | undefined) ?? search.get('user') ?? 'default'
  let password = (req.headers['x-clickhouse-key'] as string | undefined) ?? search.get('password') ?? ''
  const auth = req.headers.authorization
  if (auth?.startsWith('Basic ')) {
    const decoded = Buffer.from(auth.slice(6), 'base64').toString('utf8')
    const colon = decoded.indexOf(':')
    ;[user, password] = colon < 0 ? [decoded, ''] : [decoded.slice(0, colon), decoded.slice(colon + 1)]
  }
  return user === USER && password === PASSWORD
}

function quoteIdentifier(name: string) {
  return `\`${name.replace(/[\\`]/g, (c) => `\\${c}`)}\``
}

async function run(client: ClickHouseClient, req: http.IncomingMessage, search: URLSearchParams, signal: AbortSignal) {
  const body = await readBody(req)
  const queryInUrl = search.get('query')
  // As on a server: the SQL is the `query` parameter with the body as its data, or else the body.
  const sql = queryInUrl ?? body.toString('utf8')
  const data = queryInUrl !== null && body.length > 0 ? body : undefined
  const defaultFormat = (search.get('default_format') ?? 'TabSeparated') as DataFormat
  const settings: Record<string, string> = {}
  for (const [key, value] of search) if (!HTTP_PARAMS.has(key) && !key.startsWith('param_')) settings[key] = value
  const params = queryParams(sql, search)
  const { output, summary } = await oneAtATime(client, async () => {
    const resets = [...settingsInSession].filter((k) => !(k in settings))
    for (const k of Object.keys(settings)) if (knownSettings.has(k)) settingsInSession.add(k)
    const result = await client.exec({
      query: [
        `USE ${quoteIdentifier(search.get('database') ?? 'default')}`,
        ...resets.map((k) => `SET ${k} = DEFAULT`),
        sql,
      ].join('; '),
      ...(data ? { values: Readable.from([data]) } : {}),
      query_params: params,
      clickhouse_settings: { ...settings, default_format: defaultFormat },
      abort_signal: signal,
    })
    return { output: Buffer.concat(await result.stream.toArray()), summary: result.summary }
  })
  const format = /^\s*INSERT\b/i.test(sql) ? undefined : /\bFORMAT\s+(\w+)\s*;?\s*$/i.exec(sql)?.[1]
  return { output, summary, format: format ?? defaultFormat }
}

function asPeerError(err: unknown): PeerError {
  const e = err as { code?: unknown; type?: unknown; message?: unknown }
  if (typeof e?.code === 'string' && /^\d+$/.test(e.code) && typeof e.type === 'string') {
    return peerError(e.code, e.type, String(e.message ?? ''))
  }
  return peerError('1001', 'STD_EXCEPTION', err instanceof Error ? err.message : String(err))
}

async function main() {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { createChdbConnection } = require('chdb/connection') as typeof import('chdb/connection')
  const client = createClient({ connection: createChdbConnection({ path: dataDir }) as unknown as ConnectionParam })
  const probe = await client.exec({
    query: 'SELECT version()',
    clickhouse_settings: { default_format: 'TabSeparated' },
  })
  const version = Buffer.concat(await probe.stream.toArray())
    .toString('utf8')
    .trim()
  const names = await client.exec({
    query: 'SELECT name FROM system.settings',
    clickhouse_settings: { default_format: 'TabSeparated' },
  })
  for (const name of Buffer.concat(await names.stream.toArray())
    .toString('utf8')
    .split('\n'))
    if (name) knownSettings.add(name)

  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://peer')
    const search = url.searchParams
    const queryId = search.get('query_id') || randomUUID()
    const gzip =
      search.get('enable_http_compression') === '1' && /\bgzip\b/.test(String(req.headers['accept-encoding'] ?? ''))
    const send = (status: number, body: string | Buffer, headers: Record<string, string>) => {
      if (res.destroyed) return // the client gave up
      const payload = gzip ? zlib.gzipSync(body) : Buffer.from(body)
      res.writeHead(status, {
        'X-ClickHouse-Query-Id': queryId,
        'X-ClickHouse-Timezone': 'UTC',
        'X-ClickHouse-Server-Display-Name': 'clickhouse-http-peer',
        ...(gzip ? { 'Content-Encoding': 'gzip' } : {}),
        'Content-Length': String(payload.length),
        ...headers,
      })
      res.end(payload)
    }
    const fail = (e: PeerError) => {
      const message = e.message.trim().replace(/\.$/, '')
      send(
        HTTP_STATUS[e.code] ?? 500,
        `Code: ${e.code}. DB::Exception: ${message}. (${e.type}) (version ${version})\n`,
        {
          'Content-Type': 'text/plain; charset=UTF-8',
          'X-ClickHouse-Exception-Code': e.code,
        },
      )
    }
    if (req.method === 'GET' && (url.pathname === '/ping' || (url.pathname === '/' && !search.has('query')))) {
      req.resume()
      return send(200, 'Ok.\n', { 'Content-Type': 'text/html; charset=UTF-8' })
    }
    if (url.pathname !== '/' || (req.method !== 'GET' && req.method !== 'POST')) {
      req.resume()
      return send(404, `There is no handle ${url.pathname}\n`, { 'Content-Type': 'text/plain; charset=UTF-8' })
    }
    if (!authorized(req, search)) {
      req.resume()
      return fail(
        peerError(
          '516',
          'AUTHENTICATION_FAILED',
          `${USER}: Authentication failed: password is incorrect, or there is no user with such name`,
        ),
      )
    }
    // A client that gives up (request timeout, abort) cancels the query.
    const abort = new AbortController()
    res.on('close', () => abort.abort())
    run(client, req, search, abort.signal).then(
      ({ output, summary, format }) =>
        send(200, output, {
          'Content-Type': /^JSON/.test(format) ? 'application/json; charset=UTF-8' : 'text/plain; charset=UTF-8',
          'X-ClickHouse-Format': format,
          'X-ClickHouse-Summary': JSON.stringify(
            summary ?? {
              read_rows: '0',
              read_bytes: '0',
              written_rows: '0',
              written_bytes: '0',
              total_rows_to_read: '0',
              result_rows: '0',
              result_bytes: '0',
              elapsed_ns: '0',
            },
          ),
        }),
      (err: unknown) => fail(asPeerError(err)),
    )
  })

  const stop = () => {
    server.close()
    server.closeAllConnections()
    void client.close().finally(() => process.exit(0))
  }
  process.once('SIGTERM', stop)
  process.once('SIGINT', stop)
  server.on('error', (err) => {
    console.error(`clickhouse-http-peer: ${err.message}`)
    process.exit(1)
  })
  server.listen(port, '127.0.0.1', () => process.stdout.write(`listening ${port}\n`))
}

main().catch((err: unknown) => {
  console.error('clickhouse-http-peer failed to start:', err)
  process.exit(1)
})
