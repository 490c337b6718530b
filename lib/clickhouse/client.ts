import 'server-only'
import { randomUUID } from 'node:crypto'
import fs from 'node:fs'
import nodePath from 'node:path'
import { createClient, type ClickHouseClient } from '@clickhouse/client'
import { getConfig, type AppConfig } from '../config'

type ConnectionParam = NonNullable<Parameters<typeof createClient>[0]>['connection']

type Holder = { client: ClickHouseClient; key: string }

/** How much the embedded engine has been used since this process opened it. */
export type EngineUse = {
  /** Statements run (reads, writes and the throwaway statement after a failure). */
  statements: number
  /** Milliseconds the engine spent running them: it runs one at a time, so this is the time it was held. */
  busyMs: number
}

const g = globalThis as typeof globalThis & { __loomRunsClickHouse?: Holder; __loomRunsEngineUse?: EngineUse }
const use = (g.__loomRunsEngineUse ??= { statements: 0, busyMs: 0 })

/** The embedded engine's use so far (a copy), or null for a ClickHouse server (it runs statements side by side). */
export function engineUse(): EngineUse | null {
  if (getConfig().mode !== 'embedded') return null
  return { statements: use.statements, busyMs: Math.round(use.busyMs * 10) / 10 }
}

/** Runs one statement on the embedded engine, adding its time to the engine's use. */
async function timed<T>(run: () => Promise<T>): Promise<T> {
  const started = performance.now()
  try {
    return await run()
  } finally {
    use.statements++
    use.busyMs += performance.now() - started
  }
}

function connectionKey(config: AppConfig) {
  return config.mode === 'embedded' ? `embedded:${config.dataDir}` : `remote:${config.clickhouse.url}`
}

function build(config: AppConfig): ClickHouseClient {
  const clickhouse_settings = {
    // UInt64 versions must survive JSON: keep them as strings end to end.
    output_format_json_quote_64bit_integers: 1,
    max_execution_time: config.clickhouse.maxExecutionTime,
  } as const
  if (config.mode === 'embedded') {
    // Loaded lazily so remote deployments never load the native engine.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { createChdbConnection } = require('chdb/connection') as typeof import('chdb/connection')
    const path = resolveDataDir(config.dataDir)
    return createClient({
      connection: oneAtATime(createChdbConnection({ path })) as unknown as ConnectionParam,
      clickhouse_settings,
    })
  }
  return createClient({
    url: config.clickhouse.url,
    username: config.clickhouse.user,
    password: config.clickhouse.password,
    request_timeout: config.clickhouse.requestTimeoutMs,
    clickhouse_settings,
    application: 'loom-runs',
  })
}

type EmbeddedConnection = ReturnType<typeof import('chdb/connection').createChdbConnection>
const SERIALIZED = new Set(['query', 'exec', 'command', 'insert'])

/**
 * The embedded engine runs one statement at a time on its session, and a statement that fails part
 * way (a time budget, an abort) leaves its partial output in the session: the next statement's
 * result would start with it (seen: a timed-out SELECT's rows returned by the next `SELECT 42`).
 * So statements go one at a time, and after a failure a throwaway statement takes the leftovers
 * before anything else runs (tests/faults.test.ts). A statement whose request was cancelled while
 * it waited is skipped. Each statement's time is added to the engine's use (engineUse).
 */
function oneAtATime(conn: EmbeddedConnection): EmbeddedConnection {
  let tail: Promise<unknown> = Promise.resolve()
  const drain = () =>
    timed(() => conn.query({ query: 'SELECT 1', format: 'JSONEachRow', query_id: randomUUID() } as never)).catch(
      () => undefined,
    )
  return new Proxy(conn, {
    get(target, prop) {
      const value = Reflect.get(target, prop, target)
      if (typeof value !== 'function') return value
      if (typeof prop !== 'string' || !SERIALIZED.has(prop)) return value.bind(target)
      return (params: unknown) => {
        const run = tail.then(async () => {
          // A request cancelled while it waited (the browser left the page) does not run at all.
          const signal = (params as { abort_signal?: AbortSignal } | undefined)?.abort_signal
          if (signal?.aborted) {
            const aborted = new Error('The request was aborted before it ran')
            aborted.name = 'AbortError'
            throw aborted
          }
          try {
            return await timed(() => value.call(target, params))
          } catch (err) {
            await drain()
            throw err
          }
        })
        tail = run.catch(() => undefined)
        return run
      }
    },
  })
}

function resolveDataDir(dir: string) {
  const abs = nodePath.resolve(/*turbopackIgnore: true*/ process.cwd(), dir)
  fs.mkdirSync(abs, { recursive: true })
  return abs
}

/** The one ClickHouse client of this process (kept across dev-server hot reloads). */
export function getClient(): ClickHouseClient {
  const config = getConfig()
  const key = connectionKey(config)
  const held = g.__loomRunsClickHouse
  if (held && held.key === key) return held.client
  if (held) throw new Error(`A ClickHouse client for ${held.key} is already open in this process`)
  const client = build(config)
  g.__loomRunsClickHouse = { client, key }
  return client
}
