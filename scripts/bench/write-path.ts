/**
 * What the console costs an agent's own checkpoint write: the median and p95 of single-row INSERTs
 * into loom.working_memory on a database the console has been set up on (`npm run db:init` in a new
 * data directory: Loom's tables, the history capture, the derived tables), against the same INSERTs
 * on the bare table in another directory, measured one after the other in one process. Also lists
 * the materialized views an insert into loom.working_memory or loom.runs sets off.
 *   tsx --conditions=react-server scripts/bench/write-path.ts [--inserts N] [--json]
 * The setup runs in a child process (one engine data directory per process); the timing uses the
 * engine directly, as an agent's client would.
 */
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { parseArgs } from 'node:util'
import { createRequire } from 'node:module'
import { SERVER_NODE_ARGS } from '../server-node'

type Session = {
  queryAsync(q: string, opts: { format: string }): Promise<{ text(): string }>
  queryBindAsync(q: string, p: Record<string, unknown>, opts: { format: string }): Promise<{ text(): string }>
  close(): void
}

export type WritePathResult = {
  inserts: number
  viewsOnWorkingMemory: string[]
  viewsOnRuns: string[]
  withConsole: { p50Ms: number; p95Ms: number }
  bare: { p50Ms: number; p95Ms: number }
  ratioP50: number
  loadAverage: number[]
}

const root = path.resolve(__dirname, '../..')

function open(dir: string): {
  q: (sql: string, params?: Record<string, unknown>) => Promise<Record<string, unknown>[]>
  close: () => void
} {
  const { Session } = createRequire(path.join(root, 'package.json'))('chdb') as {
    Session: new (dir: string) => Session
  }
  const s = new Session(dir)
  const q = async (sql: string, params?: Record<string, unknown>) => {
    const r = params
      ? await s.queryBindAsync(sql, params, { format: 'JSONEachRow' })
      : await s.queryAsync(sql, { format: 'JSONEachRow' })
    const text = r.text().trim()
    return text ? text.split('\n').map((l) => JSON.parse(l) as Record<string, unknown>) : []
  }
  return { q, close: () => s.close() }
}

const INSERT = `INSERT INTO loom.working_memory (org, namespace, agent, user_id, session_id, run_id, block_key, content, char_limit,
  version, is_deleted, actor, source_trace, updated_at) VALUES ('bench', 'wp', 'agent', '', '', {run:String}, 'checkpoint',
  {c:String}, 4096, {v:UInt64}, 0, 'agent', 'host/pid-1', now64(3))`

async function timeInserts(
  q: ReturnType<typeof open>['q'],
  n: number,
  tag: string,
): Promise<{ p50Ms: number; p95Ms: number }> {
  const ms: number[] = []
  // A few first inserts warm the engine up; they are not counted.
  for (let i = -5; i < n; i++) {
    const t0 = performance.now()
    await q(INSERT, { run: `${tag}-${(i + 5) % 10}`, c: `item-${i}`, v: i + 10 })
    if (i >= 0) ms.push(performance.now() - t0)
  }
  ms.sort((a, b) => a - b)
  const at = (p: number) => Math.round(ms[Math.min(ms.length - 1, Math.floor(ms.length * p))] * 10) / 10
  return { p50Ms: at(0.5), p95Ms: at(0.95) }
}

/** Views that an insert into `table` sets off, directly or through the tables they write. */
async function viewsFiredBy(q: ReturnType<typeof open>['q'], table: string): Promise<string[]> {
  const views = (await q(
    "SELECT concat(database, '.', name) AS name, create_table_query AS ddl FROM system.tables WHERE engine = 'MaterializedView'",
  )) as { name: string; ddl: string }[]
  const from = (ddl: string) => /\bFROM\s+([\w.]+)/i.exec(ddl.replace(/`/g, ''))?.[1]
  const to = (v: { name: string; ddl: string }) => /\bTO\s+([\w.]+)/i.exec(v.ddl.replace(/`/g, ''))?.[1] ?? v.name
  const fired: string[] = []
  const queue = [table]
  const seen = new Set(queue)
  while (queue.length) {
    const t = queue.shift()!
    for (const v of views) {
      if (from(v.ddl) !== t || fired.includes(v.name)) continue
      fired.push(v.name)
      const next = to(v)
      if (seen.has(next)) continue
      seen.add(next)
      queue.push(next)
    }
  }
  return fired
}

export async function measureWritePath(inserts = 200): Promise<WritePathResult> {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'loom-runs-write-path-'))
  try {
    const full = path.join(work, 'full')
    const setup = spawnSync(process.execPath, [...SERVER_NODE_ARGS, path.join(root, 'scripts/db-init.ts')], {
      cwd: root,
      env: { ...process.env, LOOM_RUNS_DATA_DIR: full, LOOM_RUNS_DEMO: '0', CLICKHOUSE_URL: '', LOOM_RUNS_BENCH: '0' },
      encoding: 'utf8',
    })
    if (setup.status !== 0) throw new Error(`db:init failed: ${setup.stderr || setup.stdout}`)
    const a = open(full)
    const viewsOnWorkingMemory = await viewsFiredBy(a.q, 'loom.working_memory')
    const viewsOnRuns = await viewsFiredBy(a.q, 'loom.runs')
    const [{ ddl }] = (await a.q(
      "SELECT create_table_query AS ddl FROM system.tables WHERE database = 'loom' AND name = 'working_memory'",
    )) as { ddl: string }[]
    const withConsole = await timeInserts(a.q, inserts, 'full')
    a.close()
    const b = open(path.join(work, 'bare'))
    await b.q('CREATE DATABASE IF NOT EXISTS loom')
    await b.q(ddl)
    const bare = await timeInserts(b.q, inserts, 'bare')
    b.close()
    return {
      inserts,
      viewsOnWorkingMemory,
      viewsOnRuns,
      withConsole,
      bare,
      ratioP50: Math.round((withConsole.p50Ms / bare.p50Ms) * 100) / 100,
      loadAverage: os.loadavg().map((x) => Math.round(x * 100) / 100),
    }
  } finally {
    fs.rmSync(work, { recursive: true, force: true })
  }
}

async function main() {
  const { values } = parseArgs({
    options: {
      inserts: { type: 'string', default: '200' },
      json: { type: 'boolean', default: false },
      out: { type: 'string' },
    },
  })
  const n = Number(values.inserts)
  if (!Number.isInteger(n) || n < 10) throw new Error('--inserts must be a whole number ≥ 10')
  const r = await measureWritePath(n)
  if (values.out) {
    // Adds the figures to an existing results file (the benchmark's), or starts one.
    const file = path.resolve(values.out)
    const doc = fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, 'utf8')) : {}
    doc.writePath = r
    fs.writeFileSync(file, `${JSON.stringify(doc, null, 2)}\n`)
  }
  if (values.json) console.log(JSON.stringify(r))
  else {
    console.log(
      `Views an insert into loom.working_memory sets off: ${r.viewsOnWorkingMemory.length} (${r.viewsOnWorkingMemory.join(', ') || 'none'})`,
    )
    console.log(`Views an insert into loom.runs sets off: ${r.viewsOnRuns.length}`)
    console.log(
      `Single-row checkpoint INSERT, ${r.inserts} each: with the console p50 ${r.withConsole.p50Ms} ms / p95 ${r.withConsole.p95Ms} ms; bare p50 ${r.bare.p50Ms} ms / p95 ${r.bare.p95Ms} ms; ratio ${r.ratioP50}× (load ${r.loadAverage.join(' ')})`,
    )
  }
}

if (require.main === module) {
  main().catch((err) => {
    console.error(err instanceof Error ? err.message : err)
    process.exit(1)
  })
}
