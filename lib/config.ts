import { z } from 'zod'

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
  HOST: z.string().min(1).default('127.0.0.1'),
  PORT: z.coerce.number().int().min(1).max(65535).default(3000),
})

export type AppConfig = {
  mode: 'embedded' | 'remote'
  clickhouse: { url?: string; user: string; password: string; requestTimeoutMs: number; maxExecutionTime: number }
  dataDir: string
  demo: boolean
  databases: { loom: string; telemetry: string; runs: string }
  readOnly: boolean
  host: string
  port: number
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
    readOnly: e.LOOM_RUNS_READ_ONLY === '1',
    host: e.HOST,
    port: e.PORT,
  }
}

let cached: AppConfig | undefined

export function getConfig(): AppConfig {
  cached ??= parseConfig(process.env)
  return cached
}
