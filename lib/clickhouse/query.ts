import { AsyncLocalStorage } from 'node:async_hooks'
import { ClickHouseError } from '@clickhouse/client'
import type { z } from 'zod'
import { AppError } from '../errors'
import { getClient } from './client'
import { physicalRows } from '../loom/tables'

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
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ENOTFOUND', 'EHOSTUNREACH', 'ETIMEDOUT', 'EAI_AGAIN', 'EPIPE'])

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
  const causeCode = typeof (e?.cause as { code?: unknown })?.code === 'string' ? (e.cause as { code: string }).code : undefined
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
export type RequestQueryStats = { queries: number; rowsRead: number; chMs: number; wallMs: number }
const requestStats = process.env.LOOM_RUNS_BENCH === '1' ? new AsyncLocalStorage<RequestQueryStats>() : null

/** Runs `fn` collecting the statistics of its queries (null when diagnostics are off). */
export async function withQueryStats<T>(fn: () => Promise<T>): Promise<[T, RequestQueryStats | null]> {
  if (!requestStats) return [await fn(), null]
  const stats: RequestQueryStats = { queries: 0, rowsRead: 0, chMs: 0, wallMs: 0 }
  return [await requestStats.run(stats, fn), stats]
}

export function queryStatsHeaders(s: RequestQueryStats | null): Record<string, string> {
  if (!s) return {}
  const ms = (n: number) => n.toFixed(3)
  return { 'x-loom-queries': String(s.queries), 'x-loom-rows-read': String(s.rowsRead), 'x-loom-ch-ms': ms(s.chMs), 'x-loom-query-ms': ms(s.wallMs) }
}

/** Runs a SELECT with bound parameters and parses each row with the given schema. */
export async function queryRows<S extends z.ZodType>(
  query: string,
  params: QueryParams,
  schema: S,
  options: QueryOptions = {},
): Promise<z.infer<S>[]> {
  let raw: unknown[]
  const stats = requestStats?.getStore()
  try {
    const started = performance.now()
    const rs = await getClient().query({
      query,
      query_params: params,
      format: stats ? 'JSON' : 'JSONEachRow',
      abort_signal: options.signal,
      clickhouse_settings: options.settings,
    })
    if (stats) {
      const body = (await rs.json()) as { data: unknown[]; statistics?: { rows_read?: number; elapsed?: number } }
      Object.assign(stats, {
        queries: stats.queries + 1,
        rowsRead: stats.rowsRead + Number(body.statistics?.rows_read ?? 0),
        chMs: stats.chMs + Number(body.statistics?.elapsed ?? 0) * 1000,
        wallMs: stats.wallMs + (performance.now() - started),
      })
      raw = body.data
    } else raw = (await rs.json()) as unknown[]
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

export type QueryStats = { rowsRead: number; bytesRead: number; elapsedMs: number }

/** Like queryRows, but also returns ClickHouse's own read statistics (used by the benchmark). */
export async function queryWithStats(
  query: string,
  params: QueryParams,
  options: QueryOptions = {},
): Promise<{ rows: unknown[]; stats: QueryStats }> {
  try {
    const rs = await getClient().query({
      query,
      query_params: params,
      format: 'JSON',
      abort_signal: options.signal,
      clickhouse_settings: options.settings,
    })
    const body = (await rs.json()) as {
      data: unknown[]
      statistics?: { rows_read?: number; bytes_read?: number; elapsed?: number }
    }
    return {
      rows: body.data,
      stats: {
        rowsRead: Number(body.statistics?.rows_read ?? 0),
        bytesRead: Number(body.statistics?.bytes_read ?? 0),
        elapsedMs: Number(body.statistics?.elapsed ?? 0) * 1000,
      },
    }
  } catch (err) {
    throw classifyClickHouseError(err)
  }
}

export async function command(query: string, params: QueryParams = {}): Promise<void> {
  try {
    await getClient().command({ query, query_params: params })
  } catch (err) {
    throw classifyClickHouseError(err)
  }
}

export async function insertRows(table: string, values: Record<string, unknown>[]): Promise<void> {
  if (values.length === 0) return
  try {
    // Rows use the contract's column names; a mapped Loom table gets its physical ones.
    await getClient().insert({ table, values: physicalRows(table, values), format: 'JSONEachRow' })
  } catch (err) {
    throw classifyClickHouseError(err)
  }
}
