import 'server-only'
import { AsyncLocalStorage } from 'node:async_hooks'
import { ClickHouseError } from '@clickhouse/client'
import type { z } from 'zod'
import { getConfig } from '../config'
import { AppError } from '../errors'
import { getClient } from './client'
import type { Sql } from './sql'
import { trimBytes } from './json-bytes'

export type QueryParams = Record<string, unknown>

export type QueryOptions = {
  signal?: AbortSignal
  settings?: Record<string, string | number>
}

/** ClickHouse error codes that mean "the query ran out of its time budget". */
const TIMEOUT_CODES = new Set(['159', '209', '394'])
/** Codes that mean the schema the query needs is not there. */
const SCHEMA_CODES = new Set(['60', '81', '47'])
const ACCESS_CODES = new Set(['497', '164'])
const AUTH_CODES = new Set(['516', '192', '193', '194'])
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ENOTFOUND',
  'EHOSTUNREACH',
  'ETIMEDOUT',
  'EAI_AGAIN',
  'EPIPE',
])

/**
 * The embedded connection builds its errors from @clickhouse/client-common while the HTTP
 * client uses its own bundled copy, so `instanceof` cannot be trusted: match the shape.
 */
function isClickHouseError(err: unknown): err is ClickHouseError {
  if (err instanceof ClickHouseError) return true
  const e = err as { constructor?: { name?: unknown }; code?: unknown }
  return !!e && e.constructor?.name === 'ClickHouseError' && typeof e.code === 'string' && /^\d+$/.test(e.code)
}

/** Turns a client failure into the contract's typed error, keeping the cause. */
export function classifyClickHouseError(err: unknown): AppError {
  if (err instanceof AppError) return err
  if (isClickHouseError(err)) {
    if (TIMEOUT_CODES.has(err.code)) {
      return new AppError('timeout', 'ClickHouse did not finish the query within its time budget', { cause: err })
    }
    if (SCHEMA_CODES.has(err.code)) {
      return new AppError('unavailable', `A table or column this view needs is missing: ${err.type ?? err.code}`, {
        cause: err,
        details: { clickhouseCode: err.code, clickhouseType: err.type },
      })
    }
    if (ACCESS_CODES.has(err.code)) {
      return new AppError('forbidden', 'The ClickHouse user lacks the grant this action needs', { cause: err })
    }
    if (AUTH_CODES.has(err.code)) {
      return new AppError('unavailable', 'ClickHouse refused the configured credentials', { cause: err })
    }
    return new AppError('internal', `ClickHouse error ${err.code}${err.type ? ` (${err.type})` : ''}`, { cause: err })
  }
  const e = err as { code?: unknown; name?: unknown; message?: unknown; cause?: unknown }
  const sysCode = typeof e?.code === 'string' ? e.code : undefined
  if (sysCode === 'CHDB_CONNECTION') {
    return new AppError(
      'unavailable',
      'The embedded ClickHouse could not open its data directory: another process may be using it, or it is not writable',
      { cause: err },
    )
  }
  const causeCode =
    typeof (e?.cause as { code?: unknown })?.code === 'string' ? (e.cause as { code: string }).code : undefined
  if ((sysCode && NETWORK_CODES.has(sysCode)) || (causeCode && NETWORK_CODES.has(causeCode))) {
    return new AppError('unavailable', 'ClickHouse is unreachable', { cause: err })
  }
  if (e?.name === 'AbortError' || (typeof e?.message === 'string' && /aborted/i.test(e.message))) {
    return new AppError('unavailable', 'The request was cancelled', { cause: err, details: { aborted: true } })
  }
  // The client reports its own request timeout as a plain Error without a code.
  if (typeof e?.message === 'string' && /^Timeout error/i.test(e.message)) {
    return new AppError('timeout', 'ClickHouse did not answer within the request timeout', { cause: err })
  }
  return new AppError('internal', 'Unexpected failure while talking to ClickHouse', { cause: err })
}

/** Benchmark diagnostics, off unless LOOM_RUNS_BENCH=1: ClickHouse's own read statistics, summed per request. */
export type RequestQueryStats = {
  queries: number
  rowsRead: number
  chMs: number
  wallMs: number
  maxChMs: number
  /** How a shared read answered this request (any mode). */
  cache?: CacheOutcome
  /** False when only `cache` is known (diagnostics off). */
  measured?: boolean
}
/** A kept answer, a computation already running for an identical request, or a new one. */
export type CacheOutcome = 'hit' | 'joined' | 'computed'
const requestStats = new AsyncLocalStorage<RequestQueryStats>()
/** Always on and cheap: what the read cache did for this request, for a response header. */
const requestNotes = new AsyncLocalStorage<{ cache?: CacheOutcome }>()

/** Runs `fn` collecting the statistics of its queries (null when diagnostics are off and nothing was noted). */
export async function withQueryStats<T>(fn: () => Promise<T>): Promise<[T, RequestQueryStats | null]> {
  const notes: { cache?: CacheOutcome } = {}
  if (!getConfig().bench) {
    const result = await requestNotes.run(notes, fn)
    return [
      result,
      notes.cache
        ? { queries: 0, rowsRead: 0, chMs: 0, wallMs: 0, maxChMs: 0, cache: notes.cache, measured: false }
        : null,
    ]
  }
  const stats: RequestQueryStats = { queries: 0, rowsRead: 0, chMs: 0, wallMs: 0, maxChMs: 0 }
  const result = await requestNotes.run(notes, () => requestStats.run(stats, fn))
  return [result, { ...stats, cache: notes.cache }]
}

/** Records how the read cache answered the current request (shown as `x-loom-cache`). */
export function noteCacheOutcome(outcome: CacheOutcome): void {
  const notes = requestNotes.getStore()
  if (notes) notes.cache = outcome
}

export function queryStatsHeaders(s: RequestQueryStats | null): Record<string, string> {
  if (!s) return {}
  const cache: Record<string, string> = s.cache ? { 'x-loom-cache': s.cache } : {}
  if (s.measured === false) return cache
  const ms = (n: number) => n.toFixed(3)
  return {
    ...cache,
    'x-loom-queries': String(s.queries),
    'x-loom-rows-read': String(s.rowsRead),
    'x-loom-ch-ms': ms(s.chMs),
    'x-loom-query-ms': ms(s.wallMs),
    // The longest single statement: how long this request held the (one-at-a-time) embedded engine.
    'x-loom-max-statement-ms': ms(s.maxChMs),
  }
}

/** What the query layer tells its observers: a statement sent to ClickHouse, or data about to change / changed. */
export type QueryEvent =
  | { kind: 'statement'; query: string }
  /** `runs`: the (org, namespace, run_id) of every row written, when known; null when the change may touch anything. */
  | { kind: 'write'; phase: 'start' | 'end'; runs: RunTag[] | null }

/** What a written row tells about the runs it can change: a run's flags look across agents, so no agent here. */
export type RunTag = { org: string; namespace: string; runId: string }

/** A run tag as one comparable string (what kept answers and pieces are matched on). */
export const runTagText = (r: RunTag): string => JSON.stringify([r.org, r.namespace, r.runId])

function runTagsOf(values: Record<string, unknown>[]): RunTag[] | null {
  const tags: RunTag[] = []
  for (const v of values) {
    if (typeof v.org !== 'string' || typeof v.namespace !== 'string' || typeof v.run_id !== 'string') return null
    tags.push({ org: v.org, namespace: v.namespace, runId: v.run_id })
  }
  return tags
}
type QueryListener = (e: QueryEvent) => void
const g = globalThis as typeof globalThis & { __loomRunsQueryListeners?: Set<QueryListener> }
const listeners = (g.__loomRunsQueryListeners ??= new Set())

/** Observes the query layer (statement counting in tests, cache invalidation on writes). Returns the unsubscribe. */
export function onQueryEvent(fn: QueryListener): () => void {
  listeners.add(fn)
  return () => listeners.delete(fn)
}

function emit(e: QueryEvent) {
  for (const fn of listeners) {
    try {
      fn(e)
    } catch {
      // An observer's failure is not the query's.
    }
  }
}

type RawResult = { data: unknown[]; statistics?: { rows_read?: number; bytes_read?: number; elapsed?: number } }

/** Adds one statement's ClickHouse statistics to the request's figures (benchmark mode). */
function countStatement(stats: RequestQueryStats, statistics: RawResult['statistics'], started: number) {
  const chMs = Number(statistics?.elapsed ?? 0) * 1000
  Object.assign(stats, {
    queries: stats.queries + 1,
    rowsRead: stats.rowsRead + Number(statistics?.rows_read ?? 0),
    chMs: stats.chMs + chMs,
    wallMs: stats.wallMs + (performance.now() - started),
    maxChMs: Math.max(stats.maxChMs, chMs),
  })
}
type Flight = { promise: Promise<RawResult>; controller: AbortController; waiters: number; startedAt: number }

/** Identical reads in flight, keyed by statement, parameters, settings and format. */
const flights = new Map<string, Flight>()

function flightKey(query: string, params: QueryParams, settings: QueryOptions['settings'], format: string): string {
  // Class instances (TupleParam, Date) are tagged so two different kinds of value never share a key.
  return JSON.stringify([format, query, params, settings ?? null], function (_k, v: unknown) {
    const raw = this as Record<string, unknown>
    const orig = raw[_k]
    if (orig instanceof Date) return { $date: orig.toISOString() }
    if (v && typeof v === 'object' && !Array.isArray(v) && Object.getPrototypeOf(v) !== Object.prototype) {
      return { $class: (v as object).constructor?.name, ...(v as object) }
    }
    return v
  })
}

function abortError(): Error {
  const err = new Error('The request was aborted')
  err.name = 'AbortError'
  return err
}

/**
 * Every read runs under ClickHouse's `readonly = 2` (reads, and settings other than `readonly`
 * itself), so a bug in a read path cannot write. It is a SETTINGS clause of the statement, never
 * a session setting: the embedded connection sends settings as `SET` statements that would outlive
 * the read and refuse the console's own writes after it. A ClickHouse server user whose profile is
 * read-only already (readonly 1 or 2) may not change the setting, and needs no clause: the probe
 * asks the server once.
 */
const READONLY_CLAUSE = '\nSETTINGS readonly = 2'
const gr = globalThis as typeof globalThis & { __loomRunsReadonlyClause?: Promise<string> }

async function readonlyClause(): Promise<string> {
  if (getConfig().mode === 'embedded') return READONLY_CLAUSE
  gr.__loomRunsReadonlyClause ??= (async () => {
    const rs = await getClient().query({ query: "SELECT getSetting('readonly') AS r", format: 'JSONEachRow' })
    const [row] = (await rs.json()) as { r: number | string }[]
    return Number(row?.r ?? 0) === 0 ? READONLY_CLAUSE : ''
  })().catch((err: unknown) => {
    // Asked again next time (the server may be coming up).
    gr.__loomRunsReadonlyClause = undefined
    throw err
  })
  return gr.__loomRunsReadonlyClause
}

/** The statement as sent for a read: with the read-only clause. */
export async function asReadOnly(query: string): Promise<string> {
  return `${query}${await readonlyClause()}`
}

/**
 * Single flight: a read identical to one already running waits for that statement instead of
 * issuing its own. The shared statement is cancelled only when every caller waiting on it has
 * gone away, so one abandoned request never fails the others.
 */
async function sharedRead(
  query: string,
  params: QueryParams,
  options: QueryOptions,
  format: 'JSON' | 'JSONEachRow',
): Promise<RawResult> {
  const { signal } = options
  if (signal?.aborted) throw abortError()
  const key = flightKey(query, params, options.settings, format)
  let flight = flights.get(key)
  if (!flight) {
    const controller = new AbortController()
    const started = performance.now()
    emit({ kind: 'statement', query })
    const promise = (async () => {
      const rs = await getClient().query({
        query: await asReadOnly(query),
        query_params: params,
        format,
        abort_signal: controller.signal,
        clickhouse_settings: options.settings,
      })
      const body = (await rs.json()) as unknown
      return format === 'JSON' ? (body as RawResult) : { data: body as unknown[] }
    })()
    const f: Flight = { promise, controller, waiters: 0, startedAt: started }
    flight = f
    flights.set(key, f)
    promise.then(
      () => flights.get(key) === f && flights.delete(key),
      () => flights.get(key) === f && flights.delete(key),
    )
  }
  const f = flight
  f.waiters++
  return new Promise<RawResult>((resolve, reject) => {
    let settled = false
    const onAbort = () => {
      if (settled) return
      settled = true
      f.waiters--
      if (f.waiters === 0) {
        // Nobody wants the answer any more: stop the statement, and let the next caller start afresh.
        if (flights.get(key) === f) flights.delete(key)
        f.controller.abort()
      }
      reject(abortError())
    }
    signal?.addEventListener('abort', onAbort, { once: true })
    f.promise.then(
      (v) => {
        signal?.removeEventListener('abort', onAbort)
        if (settled) return
        settled = true
        f.waiters--
        resolve(v)
      },
      (err: unknown) => {
        signal?.removeEventListener('abort', onAbort)
        if (settled) return
        settled = true
        f.waiters--
        reject(err)
      },
    )
  })
}

/** Runs a SELECT with bound parameters and parses each row with the given schema. */
export async function queryRows<S extends z.ZodType>(
  query: string,
  params: QueryParams,
  schema: S,
  options: QueryOptions = {},
): Promise<z.infer<S>[]> {
  let raw: unknown[]
  const stats = requestStats.getStore()
  try {
    const started = performance.now()
    const body = await sharedRead(query, params, options, stats ? 'JSON' : 'JSONEachRow')
    if (stats) {
      countStatement(stats, body.statistics, started)
    }
    raw = body.data
  } catch (err) {
    throw classifyClickHouseError(err)
  }
  return raw.map((row, i) => {
    const parsed = schema.safeParse(row)
    if (!parsed.success) {
      throw new AppError('internal', `Row ${i} did not match the expected shape: ${parsed.error.issues[0]?.message}`, {
        cause: parsed.error,
      })
    }
    return parsed.data
  })
}

/**
 * Every change goes through here or `insertJsonEachRow`: observers hear of it before it starts (so a read
 * that overlaps it is not kept) and after it ends (so nothing read before it is served after).
 */
async function writing<T>(runs: RunTag[] | null, fn: () => Promise<T>): Promise<T> {
  // A read already in flight may answer from before the change: later callers must not join it.
  flights.clear()
  emit({ kind: 'write', phase: 'start', runs })
  try {
    return await fn()
  } finally {
    flights.clear()
    emit({ kind: 'write', phase: 'end', runs })
  }
}

export async function command(query: string, params: QueryParams = {}): Promise<void> {
  try {
    await writing(null, () => getClient().command({ query, query_params: params }))
  } catch (err) {
    throw classifyClickHouseError(err)
  }
}

/**
 * Inserts rows as JSONEachRow. The runs the write can change are read from `values`, which use the
 * contract's column names; `stored` are the same rows under the table's own column names where those
 * differ (a mapped Loom table). The console inserts through `insertRows` (lib/loom/insert.ts).
 */
export async function insertJsonEachRow(
  table: string,
  values: Record<string, unknown>[],
  stored: Record<string, unknown>[] = values,
): Promise<void> {
  if (values.length === 0) return
  try {
    await writing(runTagsOf(values), () => getClient().insert({ table, values: stored, format: 'JSONEachRow' }))
  } catch (err) {
    throw classifyClickHouseError(err)
  }
}

/**
 * Runs a SELECT and returns its rows as one JSON array, in the bytes ClickHouse wrote. For
 * payloads of megabytes (every block of a huge run with its content) parsing the rows and
 * serializing them again costs the server many times the query itself, and even decoding them to
 * a string and encoding them back costs a good part of it. The SELECT must name its columns as
 * the API's fields and give them the API's types: ClickHouse's types are what keep the shape
 * here (String stays a string, Bool prints true/false, versions pass through toString).
 */
export async function queryJsonArrayBytes(
  query: string,
  params: QueryParams,
  options: QueryOptions = {},
): Promise<Buffer> {
  const stats = requestStats.getStore()
  // A SETTINGS clause, not clickhouse_settings: the embedded connection turns those into SET
  // statements that would outlive this query and change every later one's output.
  try {
    const formatted = `${await asReadOnly(query)}
    SETTINGS output_format_json_array_of_rows = 1, output_format_json_validate_utf8 = 1,
      output_format_json_escape_forward_slashes = 0, output_format_json_quote_64bit_integers = 1,
      output_format_json_named_tuples_as_objects = 1
    FORMAT JSONEachRow`
    const started = performance.now()
    emit({ kind: 'statement', query })
    const { stream, summary } = await getClient().exec({
      query: formatted,
      query_params: params,
      abort_signal: options.signal,
      clickhouse_settings: options.settings,
    })
    const chunks: Buffer[] = []
    for await (const chunk of stream) chunks.push(chunk as Buffer)
    const buf = chunks.length === 1 ? chunks[0] : Buffer.concat(chunks)
    // Benchmark diagnostics from the statement's summary (FORMAT JSON, which carries statistics,
    // would also indent every row and so change the bytes being measured).
    if (stats)
      countStatement(
        stats,
        { rows_read: Number(summary?.read_rows ?? 0), elapsed: Number(summary?.elapsed_ns ?? 0) / 1e9 },
        started,
      )
    return trimBytes(buf).length === 0 ? Buffer.from('[]') : buf
  } catch (err) {
    throw classifyClickHouseError(err)
  }
}

/** `queryRows` for a statement that carries its own parameters. */
export function selectRows<S extends z.ZodType>(
  statement: Sql,
  schema: S,
  options: QueryOptions = {},
): Promise<z.infer<S>[]> {
  return queryRows(statement.sql, statement.params, schema, options)
}

/** `queryJsonArrayBytes` for a statement that carries its own parameters. */
export function selectJsonArrayBytes(statement: Sql, options: QueryOptions = {}): Promise<Buffer> {
  return queryJsonArrayBytes(statement.sql, statement.params, options)
}

/** `command` for a statement that carries its own parameters. */
export function runCommand(statement: Sql): Promise<void> {
  return command(statement.sql, statement.params)
}

/** `runCommand` with settings of its own (a long one-off statement, an insert's deduplication token). */
export async function runCommandWith(statement: Sql, settings: Record<string, string | number>): Promise<void> {
  try {
    await writing(null, () =>
      getClient().command({ query: statement.sql, query_params: statement.params, clickhouse_settings: settings }),
    )
  } catch (err) {
    throw classifyClickHouseError(err)
  }
}
