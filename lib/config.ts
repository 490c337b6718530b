import 'server-only'
import fs from 'node:fs'
import { z } from 'zod'
import { parseSchemaMap, type SchemaMap } from './tables/schema-map'
import { normalizeHost } from './net/network'

const identifier = z
  .string()
  .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'must be a plain ClickHouse identifier (letters, digits, underscore)')

const flag = z.enum(['0', '1'], { message: 'must be 0 or 1' })

const envSchema = z.object({
  CLICKHOUSE_URL: z.url({ message: 'must be an http(s) URL such as https://host:8443' }).optional(),
  CLICKHOUSE_USER: z.string().default('default'),
  CLICKHOUSE_PASSWORD: z.string().default(''),
  CLICKHOUSE_REQUEST_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(30_000),
  CLICKHOUSE_MAX_EXECUTION_TIME: z.coerce.number().int().min(1).max(3600).default(20),
  LOOM_RUNS_DATA_DIR: z.string().min(1).default('.data/embedded'),
  LOOM_RUNS_DEMO: flag.optional(),
  LOOM_DATABASE: identifier.default('loom'),
  LOOM_TELEMETRY_DATABASE: identifier.default('loom_telemetry'),
  LOOM_RUNS_DATABASE: identifier.default('loom_runs'),
  LOOM_RUNS_READ_ONLY: flag.default('0'),
  /** Benchmark diagnostics: ClickHouse's read statistics per request, and no read cache. */
  LOOM_RUNS_BENCH: flag.default('0'),
  LOOM_RUNS_USERS: z.string().optional(),
  LOOM_RUNS_SESSION_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  LOOM_RUNS_SCHEMA_MAP: z.string().optional(),
  LOOM_RUNS_SCHEMA_MAP_FILE: z.string().optional(),
  LOOM_RUNS_ALLOWED_HOSTS: z.string().optional(),
  LOOM_RUNS_TRUSTED_PROXIES: z.coerce
    .number()
    .int()
    .min(0, 'must be 0 or more')
    .max(10, 'must be at most 10')
    .default(0),
  /** Create the console's tables ON CLUSTER with Replicated engines (db:init). */
  LOOM_RUNS_CLUSTER: identifier.optional(),
  /** How often the server derives what agents wrote since the last batch. */
  LOOM_RUNS_DERIVE_INTERVAL_MS: z.coerce
    .number()
    .int()
    .min(100, 'must be at least 100')
    .max(60_000, 'must be at most 60000')
    .default(1000),
  /** How often enabled alerts on saved views are checked (seconds). */
  LOOM_RUNS_ALERT_INTERVAL_S: z.coerce
    .number()
    .int()
    .min(5, 'must be at least 5')
    .max(86_400, 'must be at most 86400')
    .default(60),
  /** The only hosts (`host[:port]`, comma-separated) alert webhooks may be sent to. */
  LOOM_RUNS_WEBHOOK_HOSTS: z.string().optional(),
  /** The console's own address as people reach it (for links in alerts), e.g. https://runs.example.com. */
  LOOM_RUNS_PUBLIC_URL: z.string().url('must be a URL').optional(),
  HOST: z.string().min(1).default('127.0.0.1'),
  PORT: z.coerce.number().int().min(1).max(65535).default(3000),
})

/** Every variable the console reads (deployment files are checked against this list). */
export const CONFIG_VARIABLES: readonly string[] = Object.keys(envSchema.shape)

export type AppConfig = {
  mode: 'embedded' | 'remote'
  clickhouse: { url?: string; user: string; password: string; requestTimeoutMs: number; maxExecutionTime: number }
  dataDir: string
  demo: boolean
  databases: { loom: string; telemetry: string; runs: string }
  /** Renamed Loom tables and columns (empty: the contract's names). */
  schemaMap: SchemaMap
  /** Where the mapping came from: the variable's name or the file's path. */
  schemaMapSource?: string
  readOnly: boolean
  /** LOOM_RUNS_BENCH=1: per-request ClickHouse statistics on, the short read cache off. */
  bench: boolean
  users: ConfiguredUser[]
  sessionSecret?: string
  /** Host names (`host[:port]`, normalized) the console answers to besides its loopback names. */
  allowedHosts: string[]
  /** How many reverse proxies stand in front (0: the socket's address is the client's). */
  trustedProxies: number
  /** LOOM_RUNS_CLUSTER: the cluster the console's tables are created on (ON CLUSTER, Replicated engines). */
  cluster?: string
  /** How often the server runs a derivation batch (ms). */
  deriveIntervalMs: number
  /** How often enabled alerts are checked (s). */
  alertIntervalS: number
  /** Hosts (lower case, `host` or `host:port`) alert webhooks may go to; empty: none. */
  webhookHosts: string[]
  /** Base of links in alert payloads. */
  publicUrl: string
  host: string
  port: number
}

export type Role = 'viewer' | 'operator'
export type ConfiguredUser = { name: string; role: Role; secret: string }

const userEntry = z
  .string()
  .regex(
    /^[A-Za-z0-9_.@-]{1,64}:(viewer|operator):scrypt(\$\d{1,8}\$\d{1,3}\$\d{1,3})?\$[A-Za-z0-9+/=]+\$[A-Za-z0-9+/=]+$/,
    'each user is name:role:scrypt$N$r$p$salt$hash (role viewer or operator; make the hash with npm run user:hash)',
  )

/** LOOM_RUNS_USERS: comma-separated `name:role:<hash>` entries (`scrypt$N$r$p$salt$hash`, or the older `scrypt$salt$hash`). */
function parseUsers(text: string | undefined): ConfiguredUser[] {
  if (!text) return []
  const users = text
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean)
    .map((entry, i) => {
      const ok = userEntry.safeParse(entry)
      if (!ok.success) throw new ConfigError([`LOOM_RUNS_USERS entry ${i + 1}: ${ok.error.issues[0]?.message}`])
      const [name, role, ...rest] = entry.split(':')
      return { name, role: role as Role, secret: rest.join(':') }
    })
  const names = new Set(users.map((u) => u.name))
  if (names.size !== users.length) throw new ConfigError(['LOOM_RUNS_USERS: a user name appears twice'])
  return users
}

/** LOOM_RUNS_ALLOWED_HOSTS: comma-separated `host[:port]` entries, each checked. */
function parseAllowedHosts(text: string | undefined): string[] {
  if (!text) return []
  return text
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean)
    .map((entry, i) => {
      const host = normalizeHost(entry)
      if (!host)
        throw new ConfigError([
          `LOOM_RUNS_ALLOWED_HOSTS entry ${i + 1}: "${entry}" is not a host[:port] (e.g. loom.example.com or 10.1.2.3:3000)`,
        ])
      return host
    })
}

/** LOOM_RUNS_SCHEMA_MAP (JSON) or LOOM_RUNS_SCHEMA_MAP_FILE (a JSON file): see lib/tables/schema-map.ts. */
function readSchemaMap(
  inline: string | undefined,
  file: string | undefined,
): { schemaMap: SchemaMap; schemaMapSource?: string } {
  if (inline && file)
    throw new ConfigError([
      'LOOM_RUNS_SCHEMA_MAP_FILE: set either LOOM_RUNS_SCHEMA_MAP or LOOM_RUNS_SCHEMA_MAP_FILE, not both',
    ])
  if (!inline && !file) return { schemaMap: {} }
  const variable = inline ? 'LOOM_RUNS_SCHEMA_MAP' : 'LOOM_RUNS_SCHEMA_MAP_FILE'
  let text = inline ?? ''
  if (file) {
    try {
      text = fs.readFileSync(file, 'utf8')
    } catch (err) {
      throw new ConfigError([
        `LOOM_RUNS_SCHEMA_MAP_FILE: cannot read ${file} (${(err as NodeJS.ErrnoException).code ?? String(err)})`,
      ])
    }
  }
  const { map, problems } = parseSchemaMap(text)
  if (!map) throw new ConfigError(problems.map((p) => `${variable}: ${p}`))
  return { schemaMap: map, schemaMapSource: file ?? variable }
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`)
    this.name = 'ConfigError'
  }
}

/** Parses the environment into the app's configuration; every bad value is named in the error. */
export function parseConfig(env: Record<string, string | undefined>): AppConfig {
  // Empty strings mean "unset" for every variable, as a shell `VAR=` would suggest.
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''))
  const parsed = envSchema.safeParse(cleaned)
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`))
  }
  const e = parsed.data
  const mode = e.CLICKHOUSE_URL ? 'remote' : 'embedded'
  if (e.CLICKHOUSE_URL && !/^https?:\/\//.test(e.CLICKHOUSE_URL)) {
    throw new ConfigError(['CLICKHOUSE_URL: must start with http:// or https://'])
  }
  return {
    mode,
    clickhouse: {
      url: e.CLICKHOUSE_URL,
      user: e.CLICKHOUSE_USER,
      password: e.CLICKHOUSE_PASSWORD,
      requestTimeoutMs: e.CLICKHOUSE_REQUEST_TIMEOUT_MS,
      maxExecutionTime: e.CLICKHOUSE_MAX_EXECUTION_TIME,
    },
    dataDir: e.LOOM_RUNS_DATA_DIR,
    // Demo data only ever goes into the embedded engine; remote Loom data is never touched.
    demo: mode === 'embedded' && (e.LOOM_RUNS_DEMO ?? '1') === '1',
    databases: { loom: e.LOOM_DATABASE, telemetry: e.LOOM_TELEMETRY_DATABASE, runs: e.LOOM_RUNS_DATABASE },
    ...readSchemaMap(e.LOOM_RUNS_SCHEMA_MAP, e.LOOM_RUNS_SCHEMA_MAP_FILE),
    readOnly: e.LOOM_RUNS_READ_ONLY === '1',
    bench: e.LOOM_RUNS_BENCH === '1',
    users: parseUsers(e.LOOM_RUNS_USERS),
    sessionSecret: e.LOOM_RUNS_SESSION_SECRET,
    allowedHosts: parseAllowedHosts(e.LOOM_RUNS_ALLOWED_HOSTS),
    trustedProxies: e.LOOM_RUNS_TRUSTED_PROXIES,
    cluster: e.LOOM_RUNS_CLUSTER,
    deriveIntervalMs: e.LOOM_RUNS_DERIVE_INTERVAL_MS,
    alertIntervalS: e.LOOM_RUNS_ALERT_INTERVAL_S,
    publicUrl: (
      e.LOOM_RUNS_PUBLIC_URL ?? `http://${e.HOST === '0.0.0.0' || e.HOST === '::' ? '127.0.0.1' : e.HOST}:${e.PORT}`
    ).replace(/\/$/, ''),
    webhookHosts: (e.LOOM_RUNS_WEBHOOK_HOSTS ?? '')
      .split(',')
      .map((h) => h.trim().toLowerCase())
      .filter(Boolean),
    host: e.HOST,
    port: e.PORT,
  }
}

let cached: AppConfig | undefined

export function getConfig(): AppConfig {
  cached ??= parseConfig(process.env)
  return cached
}

/** Reads the environment again on next use (a changed user list, in tests or after an operator edits it). */
export function resetConfig(): void {
  cached = undefined
}
