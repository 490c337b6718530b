/**
 * Bulk benchmark data: fills a SEPARATE embedded data directory (default bench/data/embedded), or a
 * remote server with --remote (CLICKHOUSE_URL), with contract-shaped rows generated inside
 * ClickHouse in chunks. See scripts/bench/generate.ts for the shape of the data.
 *
 *   npm run seed:bulk -- --runs 1000000 --versions 10000000 --turns 1000000 --memories 1000000 --searches 1000000
 *
 * Options: --data-dir DIR, --remote, --force (embedded: delete the directory first), --append (add
 * runs with another salt), --seed N, --span-days N, --no-optimize, --meta FILE.
 * Refuses to write where Loom data already is unless --force or --append.
 */
import fs from 'node:fs'
import path from 'node:path'
import { parseArgs } from 'node:util'
import { getClient } from '../lib/clickhouse/client'
import { getConfig } from '../lib/config'
import { createMissingSchema } from '../lib/setup/init'
import { tableNames } from '../lib/loom/tables'
import * as gen from './bench/generate'
import { DEFAULT_DATA_DIR, metaPathFor } from './bench/paths'

type Meta = Record<string, unknown>

const USAGE = `Usage: npm run seed:bulk -- [--runs N] [--versions N] [--turns N] [--memories N] [--searches N]
       [--data-dir DIR | --remote] [--force | --append] [--seed N] [--span-days N] [--no-optimize] [--meta FILE]`

function count(name: string, v: string | undefined, dflt: number): number {
  if (v === undefined) return dflt
  const n = Number(v.replace(/[_,]/g, ''))
  if (!Number.isSafeInteger(n) || n < 0) throw new Error(`--${name} must be a whole number, got ${v}`)
  return n
}

const fmt = (n: number) =>
  n >= 1e6 ? `${(n / 1e6).toFixed(2)}M` : n >= 1e4 ? `${(n / 1e3).toFixed(1)}k` : String(Math.round(n))

function progress(label: string, done: number, total: number, rows: number, startedAt: number, final = false) {
  const width = 28
  const frac = total > 0 ? Math.min(1, done / total) : 1
  const bar = '#'.repeat(Math.round(frac * width)).padEnd(width, '.')
  const line = `  ${label.padEnd(34)} [${bar}] ${String(Math.round(frac * 100)).padStart(3)}%  ${fmt(rows).padStart(7)} rows  ${((Date.now() - startedAt) / 1000).toFixed(1)}s`
  if (process.stderr.isTTY) process.stderr.write(`\r${line}${final ? '\n' : ''}`)
  else if (final) process.stderr.write(`${line}\n`)
}

async function main() {
  const { values } = parseArgs({
    options: {
      runs: { type: 'string' },
      versions: { type: 'string' },
      turns: { type: 'string' },
      memories: { type: 'string' },
      searches: { type: 'string' },
      'data-dir': { type: 'string' },
      remote: { type: 'boolean', default: false },
      force: { type: 'boolean', default: false },
      append: { type: 'boolean', default: false },
      seed: { type: 'string' },
      'span-days': { type: 'string' },
      'no-optimize': { type: 'boolean', default: false },
      meta: { type: 'string' },
      help: { type: 'boolean', default: false },
    },
    strict: true,
  })
  if (values.help) {
    console.log(USAGE)
    return
  }
  const runs = count('runs', values.runs, 1_000_000)
  if (runs < 10) throw new Error('--runs must be at least 10')
  const scale = {
    runs,
    versions: count('versions', values.versions, runs * 10),
    turns: count('turns', values.turns, runs),
    memories: count('memories', values.memories, runs),
    searches: count('searches', values.searches, runs),
  }
  if (values.force && values.append) throw new Error('--force and --append exclude each other')
  const remote = values.remote
  const dataDir = path.resolve(values['data-dir'] ?? DEFAULT_DATA_DIR)
  const metaPath = values.meta
    ? path.resolve(values.meta)
    : remote
      ? path.resolve('bench/data/remote.seed.json')
      : metaPathFor(dataDir)

  // Configuration is read once, on first use: set it up before the first call reads it.
  if (remote) {
    if (!process.env.CLICKHOUSE_URL)
      throw new Error('--remote needs CLICKHOUSE_URL (and CLICKHOUSE_USER / CLICKHOUSE_PASSWORD)')
    if (values.force)
      throw new Error('--force would delete data on a remote server: clear it yourself, or use --append')
  } else {
    delete process.env.CLICKHOUSE_URL
    process.env.LOOM_RUNS_DATA_DIR = dataDir
    if (values.force) {
      fs.rmSync(dataDir, { recursive: true, force: true })
      fs.rmSync(metaPath, { force: true })
    }
  }
  process.env.LOOM_RUNS_DEMO = '0'
  process.env.CLICKHOUSE_REQUEST_TIMEOUT_MS = '600000'
  process.env.CLICKHOUSE_MAX_EXECUTION_TIME = '3600'

  const config = getConfig()
  const t = tableNames()
  const client = getClient()
  const settings = { max_execution_time: 0, max_insert_threads: '2' }
  const exec = async (sql: string) => {
    await client.command({ query: sql, clickhouse_settings: settings })
  }
  const select = async <T>(sql: string): Promise<T[]> => {
    const rs = await client.query({ query: sql, format: 'JSONEachRow', clickhouse_settings: settings })
    return (await rs.json()) as T[]
  }

  const target = remote
    ? `remote ClickHouse at ${new URL(config.clickhouse.url!).host}`
    : `embedded engine at ${dataDir}`
  console.error(`seed:bulk → ${target}`)

  // Never write into existing Loom data unless asked to.
  const present = await select<{ name: string }>(
    `SELECT name FROM system.tables WHERE database = '${config.databases.loom}' AND name IN ('runs', 'working_memory')`,
  )
  if (present.length > 0) {
    const [n] = await select<{ n: string }>(
      `SELECT toString(${present.map((p) => `(SELECT count() FROM ${config.databases.loom}.${p.name})`).join(' + ')}) AS n`,
    )
    if (Number(n?.n ?? 0) > 0 && !values.append) {
      console.error(
        `Refusing to write: ${target} already holds Loom data (${n?.n} rows in ${config.databases.loom}.runs / working_memory).\n` +
          (remote
            ? 'Use --append to add runs to it.'
            : 'Use --force to delete the directory and start again, or --append to add runs.'),
      )
      await client.close()
      process.exit(2)
    }
  }
  const previous: Meta | null =
    values.append && fs.existsSync(metaPath) ? (JSON.parse(fs.readFileSync(metaPath, 'utf8')) as Meta) : null

  const started = Date.now()
  await createMissingSchema({ history: false })
  const salt =
    values.seed !== undefined ? count('seed', values.seed, 1) : values.append ? Date.now() % 1_000_000_007 : 1
  const opts = gen.defaultOptions({
    salt,
    anchorMs: Math.floor(Date.now() / 60_000) * 60_000,
    ...(values['span-days'] ? { spanDays: Number(values['span-days']) } : {}),
  })
  console.error(`  calibrating the distribution for ${fmt(scale.runs)} runs ...`)
  const { calibration, expected } = await gen.calibrate(select, scale, opts)
  console.error(
    `  plan: ${fmt(expected.runs_rows)} run rows + ${fmt(expected.cp_runs)} checkpoint-only runs, ${fmt(expected.wm)} working-memory rows, ` +
      `${fmt(expected.turns)} turns, ${fmt(expected.mem)} memories, ${fmt(expected.search)} searches, ${fmt(expected.blobs)} blobs; ` +
      `${calibration.hugeCount} huge run(s) of ${calibration.huge.wm} blocks / ${calibration.huge.turns} turns`,
  )

  const jobs = gen.tableJobs(opts, calibration, scale, config.databases)
  const expectedRows: Record<string, number> = {
    [t.runs]: expected.runs_rows,
    [t.workingMemory]: expected.wm,
    [t.conversations]: expected.convs,
    [t.turns]: expected.turns,
    [t.memory]: expected.mem,
    [t.searchTrace]: expected.search,
    [t.contextBlobs]: expected.blobs,
  }
  for (const job of jobs) {
    const chunk = Math.max(
      1000,
      Math.min(Math.ceil(scale.runs / 10), Math.round(1_000_000 / Math.max(job.perRun, 0.05))),
    )
    const jobStarted = Date.now()
    const total = expectedRows[job.table] || 0
    for (let start = 0; start < scale.runs; start += chunk) {
      const n = Math.min(chunk, scale.runs - start)
      progress(job.table, start, scale.runs, (total * start) / scale.runs, jobStarted)
      await exec(job.sql(start, n))
    }
    progress(job.table, scale.runs, scale.runs, total, jobStarted, true)
  }
  const loadMs = Date.now() - started

  let optimizeMs = 0
  if (!values['no-optimize'] && !remote) {
    const t0 = Date.now()
    for (const job of jobs) {
      progress(`merge ${job.table}`, 0, 1, 0, t0)
      await exec(`OPTIMIZE TABLE ${job.table} FINAL`)
    }
    optimizeMs = Date.now() - t0
    progress('merge (OPTIMIZE … FINAL)', 1, 1, 0, t0, true)
  }

  // The dashboard's own tables. History capture starts now: bulk rows are not in it.
  const t1 = Date.now()
  const report = await createMissingSchema({ history: true, runIndex: true })
  const schemaMs = Date.now() - t1
  for (const name of report.created) console.error(`  created ${name}`)
  console.error(
    `  note: working-memory history capture was skipped for the bulk rows (installed after the load, it records later writes only);` +
      ` the run index was backfilled from the loaded rows in ${(schemaMs / 1000).toFixed(1)}s.`,
  )

  const tables = [t.runs, t.workingMemory, t.conversations, t.turns, t.memory, t.searchTrace, t.contextBlobs]
  const [counts] = await select<Record<string, string>>(
    `SELECT ${tables.map((name, i) => `toString((SELECT count() FROM ${name})) AS c${i}`).join(', ')}`,
  )
  const rowCounts = Object.fromEntries(tables.map((name, i) => [name, Number(counts[`c${i}`])]))
  const [distinct] = await select<{ runs: string; cp: string }>(
    `SELECT toString((SELECT count() FROM ${t.runs})) AS runs,
       toString((SELECT count() FROM (SELECT DISTINCT org, namespace, agent, run_id FROM ${t.workingMemory}
          WHERE (org, namespace, agent, run_id) NOT IN (SELECT org, namespace, agent, run_id FROM ${t.runs})))) AS cp`,
  )
  const samples: Record<string, unknown> = {}
  for (const [name, sql] of Object.entries(gen.sampleRunsSql(opts, calibration, scale.runs))) {
    const [row] = await select<Record<string, unknown>>(sql)
    if (row) samples[name] = row
  }
  const [engine] = await select<{ v: string }>('SELECT version() AS v')
  await client.close()

  const meta: Meta = {
    kind: 'loom-runs bulk seed',
    target: remote ? 'remote' : 'embedded',
    dataDir: remote ? null : dataDir,
    engine: engine?.v ?? null,
    seededAt: new Date().toISOString(),
    requested: scale,
    options: opts,
    calibration,
    rows: rowCounts,
    runs: {
      withRunRow: Number(distinct.runs),
      checkpointOnly: Number(distinct.cp),
      total: Number(distinct.runs) + Number(distinct.cp),
    },
    samples,
    filters: { org: 'hooli', status: 'failed', q: 'invoice', agent: 'support-triage' },
    timings: { loadMs, optimizeMs, schemaMs, totalMs: Date.now() - started },
    historyCapture: 'skipped for bulk rows (installed after the load)',
    loads: [...((previous?.loads as unknown[] | undefined) ?? []), { salt, scale, at: new Date().toISOString() }],
  }
  fs.mkdirSync(path.dirname(metaPath), { recursive: true })
  fs.writeFileSync(metaPath, `${JSON.stringify(meta, null, 2)}\n`)
  console.error(
    `  rows: ${Object.entries(rowCounts)
      .map(([k, v]) => `${k} ${fmt(v)}`)
      .join(', ')}`,
  )
  console.error(
    `  runs listed: ${fmt(Number(distinct.runs))} with a run row + ${fmt(Number(distinct.cp))} checkpoint-only`,
  )
  console.error(
    `  done in ${((Date.now() - started) / 1000).toFixed(1)}s (load ${(loadMs / 1000).toFixed(1)}s, merge ${(optimizeMs / 1000).toFixed(1)}s, index ${(schemaMs / 1000).toFixed(1)}s); meta: ${metaPath}`,
  )
}

main().catch((err) => {
  if (process.stderr.isTTY) process.stderr.write('\n')
  console.error(err instanceof Error ? err.message : err)
  process.exit(1)
})
