/**
 * Load measured as capacity, on loopback: the built server (as `npm start` runs it) on a fresh demo database, a mixed read
 * workload offered at a rising rate (steps of --step-duration seconds) while conflict-checked
 * writers edit a few checkpoints. Each step reports the offered and achieved rate, p50/p99,
 * errors, how the read cache answered (x-loom-cache) and the server's RSS afterwards. The
 * capacity is the highest offered rate the server held: achieved ≥ 95% of it, p99 ≤ --p99-ms,
 * no errors. The workload spreads over every demo run's pages and over 1,000+ list and
 * analytics filter combinations, so it measures the engine rather than the cache.
 * Before the steps, each kind of request is measured alone for the time it holds the embedded
 * engine (GET /api/health counts it); each step reports the engine's busy share. The pool's mean
 * engine time gives the ceiling no scheduling can pass: the engine runs one statement at a time.
 * Results: bench/load-results.json.
 *
 *   npm run build && npm run load-test [-- --rates 5,10,20,40,60,80,100,125,150,200 --step-duration 15]
 *
 * `--data-dir DIR` runs on an existing embedded data directory instead (the bulk benchmark data:
 * `-- --data-dir bench/data/embedded`), with no demo agent; the pool then takes the first
 * `--pool-runs` runs of the list (default 1,200). Results go to bench/load-results.json, under `demo` or `bulk`.
 * The writers' edits stay in that directory.
 *
 * NEXT_DIST_DIR is passed through, so a build in another folder can be load-tested beside a
 * running one.
 */
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import autocannon from 'autocannon'
import { encodeSegment } from '../lib/links'
import { buildReadPool, type ReadPool } from './load/read-pool'
import { freePort, spawnStartScript, waitForHealth } from './bench/server'

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`)
  return i > 0 ? Number(process.argv[i + 1]) : fallback
}
const RATES = (() => {
  const i = process.argv.indexOf('--rates')
  const text = i > 0 ? process.argv[i + 1] : '2,5,10,20,40,60,80,100,125,150,200,250'
  return text
    .split(',')
    .map(Number)
    .filter((n) => Number.isInteger(n) && n > 0)
})()
const STEP_S = arg('step-duration', 15)
const P99_LIMIT_MS = arg('p99-ms', 1000)
/** Connections at most; a step offering fewer requests per second uses that many. */
const MAX_CONNECTIONS = arg('connections', 200)
/** Pause of each writer between two edits (ms). */
const WRITER_PAUSE_MS = arg('writer-pause', 1000)
/** An existing data directory to load (no demo seeding), or null for a fresh demo database. */
const DATA_DIR = (() => {
  const i = process.argv.indexOf('--data-dir')
  return i > 0 ? path.resolve(process.argv[i + 1]) : null
})()
const POOL_RUNS = arg('pool-runs', 1200)
/** Steps over the limit before stopping (a single noisy step does not end the run). */
const FAILED_STEPS_TO_STOP = 2

/** Resident memory of a process and its descendants, in MB. */
function rssMb(pid: number): number {
  const out = execFileSync('ps', ['-e', '-o', 'pid=,ppid=,rss='], { encoding: 'utf8' })
  const rows = out
    .trim()
    .split('\n')
    .map((l) => l.trim().split(/\s+/).map(Number))
  const tree = new Set([pid])
  let grew = true
  while (grew) {
    grew = false
    for (const [p, pp] of rows) {
      if (tree.has(pp) && !tree.has(p)) {
        tree.add(p)
        grew = true
      }
    }
  }
  return Math.round(rows.filter(([p]) => tree.has(p)).reduce((s, [, , rss]) => s + rss, 0) / 1024)
}

const runPath = (r: { org: string; namespace: string; agent: string; runId: string }) =>
  `/api/runs/${[r.org, r.namespace, r.agent, r.runId].map(encodeSegment).join('/')}`

type Step = {
  offeredPerS: number
  achievedPerS: number
  requests: number
  p50Ms: number
  p90Ms: number
  p99Ms: number
  maxMs: number
  errors: number
  timeouts: number
  non2xx: number
  cache: { hit: number; joined: number; computed: number; uncached: number; hitRate: number }
  distinctRequests: number
  writesDuringStep: number
  rssMb: number
  held: boolean
  /** The embedded engine during the step: share of the time it was busy, and its time per read request (the writers' statements included). */
  engine: { busyShare: number; msPerRequest: number; statementsPerRequest: number } | null
}

type EngineUse = { statements: number; busyMs: number }

/** The embedded engine's use so far, from GET /api/health (null for a ClickHouse server). */
async function engineUse(base: string): Promise<EngineUse | null> {
  const body = (await (await fetch(`${base}/api/health`)).json()) as { engine?: EngineUse | null }
  return body.engine ?? null
}

const round1 = (n: number) => Math.round(n * 10) / 10

/** Requests of each kind measured alone (fewer when the pool has fewer). */
const SERIAL_PER_KIND = arg('serial-per-kind', 20)

type KindCost = { requests: number; msPerRequest: number; statementsPerRequest: number }

/**
 * What each kind of request costs the engine, measured with nothing else running: requests of the
 * kind one after another, between two health reads, less one health read's own statements. The
 * pool's mean (weighted by kind as steps pick) gives the engine's ceiling for reads: the rate at
 * which the one-at-a-time engine would be busy all the time, before any queueing or writes.
 */
async function engineCostByKind(base: string, pool: ReadPool) {
  const first = await engineUse(base)
  if (!first) return null
  const second = (await engineUse(base))!
  // Between two reads, one health read ran: its own statements, taken off every bracket below.
  const own = { statements: second.statements - first.statements, busyMs: second.busyMs - first.busyMs }
  const byKind: Record<string, KindCost> = {}
  for (const kind of Object.keys(pool.byKind).sort()) {
    const sample = pool
      .ofKind(kind)
      .map((p) => ({ p, r: Math.random() }))
      .sort((a, b) => a.r - b.r)
      .slice(0, SERIAL_PER_KIND)
      .map((x) => x.p)
    const before = (await engineUse(base))!
    for (const p of sample) await (await fetch(`${base}${p}`)).arrayBuffer()
    const after = (await engineUse(base))!
    const n = sample.length
    byKind[kind] = {
      requests: n,
      msPerRequest: round1(Math.max(0, after.busyMs - before.busyMs - own.busyMs) / n),
      statementsPerRequest: round1(Math.max(0, after.statements - before.statements - own.statements) / n),
    }
  }
  const meanMsPerRead = Object.entries(byKind).reduce(
    (sum, [kind, c]) => sum + (pool.byKind[kind] / pool.size) * c.msPerRequest,
    0,
  )
  return {
    byKind,
    meanMsPerRead: round1(meanMsPerRead),
    ceilingReqPerS: meanMsPerRead > 0 ? round1(1000 / meanMsPerRead) : null,
  }
}

/** One step: `rate` requests per second offered for STEP_S seconds, each a random pick from the pool. */
async function step(
  base: string,
  pool: ReadPool,
  rate: number,
  seen: Set<string>,
): Promise<Omit<Step, 'writesDuringStep' | 'rssMb' | 'held' | 'engine'>> {
  const cache = { hit: 0, joined: 0, computed: 0, uncached: 0 }
  const distinct = new Set<string>()
  const r = await autocannon({
    url: base,
    connections: Math.min(MAX_CONNECTIONS, rate),
    overallRate: rate,
    duration: STEP_S,
    timeout: 10,
    requests: [
      {
        method: 'GET',
        setupRequest: (req) => {
          const p = pool.pick()
          distinct.add(p)
          seen.add(p)
          return { ...req, path: p }
        },
        onResponse: (_status, _body, _ctx, headers) => {
          const c = (headers as Record<string, string | undefined>)['x-loom-cache']
          if (c === 'hit' || c === 'joined' || c === 'computed') cache[c]++
          else cache.uncached++
        },
      },
    ],
  })
  const cacheable = cache.hit + cache.joined + cache.computed
  return {
    offeredPerS: rate,
    achievedPerS: Math.round((r.requests.total / STEP_S) * 10) / 10,
    requests: r.requests.total,
    p50Ms: r.latency.p50,
    p90Ms: r.latency.p90,
    p99Ms: r.latency.p99,
    maxMs: r.latency.max,
    errors: r.errors,
    timeouts: r.timeouts,
    non2xx: r.non2xx,
    cache: {
      ...cache,
      // Of the requests the cache could answer (list, analytics, run header): kept or shared.
      hitRate: cacheable ? Math.round(((cache.hit + cache.joined) / cacheable) * 1000) / 1000 : 0,
    },
    distinctRequests: distinct.size,
  }
}

async function main() {
  // Other work on the machine competes for the same cores: recorded beside the figures.
  const loadAvgAtStart = os.loadavg().map((x) => Math.round(x * 10) / 10)
  const port = await freePort()
  const base = `http://127.0.0.1:${port}`
  const dataDir = DATA_DIR ?? fs.mkdtempSync(path.join(os.tmpdir(), 'loom-runs-load-'))
  // The server `npm start` runs (the standalone build), not `next start`.
  const server = spawnStartScript(port, dataDir, { demo: !DATA_DIR })
  try {
    process.stderr.write(
      DATA_DIR ? `starting the server on ${DATA_DIR}…\n` : 'starting the server and seeding demo data…\n',
    )
    await waitForHealth(base, 240)
    const rssStart = rssMb(server.pid!)
    const pool = await buildReadPool(base, Date.now(), DATA_DIR ? POOL_RUNS : Infinity)
    process.stderr.write(
      `read pool: ${pool.size} different requests over ${pool.runs} runs (${JSON.stringify(pool.byKind)})\n`,
    )
    const engineCost = await engineCostByKind(base, pool)
    if (engineCost) {
      process.stderr.write(
        `engine time per request, alone: ${Object.entries(engineCost.byKind)
          .map(([k, c]) => `${k} ${c.msPerRequest} ms`)
          .join(', ')}\n`,
      )
      process.stderr.write(
        `  pool mean ${engineCost.meanMsPerRead} ms: the engine's ceiling for reads is ${engineCost.ceilingReqPerS} req/s\n`,
      )
    }

    // Writers: a few blocks of finished runs, each edited in a loop with its latest version.
    type Listed = {
      org: string
      namespace: string
      agent: string
      runId: string
      checkpoint: { isDeleted: boolean; userId: string; sessionId: string } | null
    }
    const finished = (
      (await (await fetch(`${base}/api/runs?status=succeeded&limit=200`)).json()).runs as Listed[]
    ).filter((r) => r.checkpoint && !r.checkpoint.isDeleted)
    const targets = finished.slice(0, 3).map((r) => ({
      ...r,
      url: `${runPath(r)}/blocks/checkpoint?userId=${encodeURIComponent(r.checkpoint!.userId)}&sessionId=${encodeURIComponent(r.checkpoint!.sessionId)}`,
    }))
    if (targets.length === 0) throw new Error('no finished run with a live checkpoint to edit')
    const writes = { ok: 0, conflict: 0, other: 0, notFound: 0 }
    // Each accepted edit is "latest + 1" on its block: accepted edits per block must equal how far its version moved.
    const versionOf = async (t: (typeof targets)[number]) =>
      BigInt((await (await fetch(`${base}${t.url}`)).json()).block?.version ?? 0)
    const initial = await Promise.all(targets.map(versionOf))
    const accepted = targets.map(() => 0)
    let stop = false
    const writer = async (t: (typeof targets)[number], n: number, ti: number) => {
      while (!stop) {
        const cur = await (await fetch(`${base}${t.url}`)).json()
        if (!cur.block) {
          writes.notFound++
          return
        }
        const res = await fetch(`${base}${t.url}`, {
          method: 'PUT',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({
            content: `load edit ${n}-${Date.now()}`,
            expectedVersion: cur.block.version,
            reason: 'load test',
            force: true,
          }),
        })
        if (res.status === 200) {
          writes.ok++
          accepted[ti]++
        } else if (res.status === 409) writes.conflict++
        else writes.other++
        await res.arrayBuffer()
        await new Promise((r) => setTimeout(r, WRITER_PAUSE_MS))
      }
    }
    const writers = targets.flatMap((t, i) => [writer(t, i * 2, i), writer(t, i * 2 + 1, i)])
    process.stderr.write(
      `steps of ${STEP_S} s at ${RATES.join(', ')} req/s, with ${writers.length} writers on ${targets.length} blocks (pause ${WRITER_PAUSE_MS} ms)…\n`,
    )

    const steps: Step[] = []
    const seen = new Set<string>()
    let failed = 0
    for (const rate of RATES) {
      if (failed >= FAILED_STEPS_TO_STOP) break
      const writesBefore = writes.ok + writes.conflict + writes.other
      const engineBefore = await engineUse(base)
      const stepStarted = performance.now()
      const s = await step(base, pool, rate, seen)
      const stepMs = performance.now() - stepStarted
      const engineAfter = await engineUse(base)
      const engine =
        engineBefore && engineAfter && s.requests > 0
          ? {
              busyShare: Math.round(((engineAfter.busyMs - engineBefore.busyMs) / stepMs) * 1000) / 1000,
              msPerRequest: round1((engineAfter.busyMs - engineBefore.busyMs) / s.requests),
              statementsPerRequest: round1((engineAfter.statements - engineBefore.statements) / s.requests),
            }
          : null
      const held =
        s.achievedPerS >= rate * 0.95 && s.p99Ms <= P99_LIMIT_MS && s.errors === 0 && s.timeouts === 0 && s.non2xx === 0
      failed = held ? 0 : failed + 1
      steps.push({
        ...s,
        writesDuringStep: writes.ok + writes.conflict + writes.other - writesBefore,
        rssMb: rssMb(server.pid!),
        held,
        engine,
      })
      const last = steps[steps.length - 1]
      const busy = engine
        ? `, engine busy ${Math.round(engine.busyShare * 100)} % (${engine.msPerRequest} ms a request)`
        : ''
      process.stderr.write(
        `  offered ${rate}/s: achieved ${s.achievedPerS}/s, p50 ${s.p50Ms} ms, p99 ${s.p99Ms} ms, errors ${s.errors + s.timeouts + s.non2xx}, cache hit rate ${s.cache.hitRate}, RSS ${last.rssMb} MB${busy}${held ? '' : '  (not held)'}\n`,
      )
    }
    stop = true
    await Promise.all(writers)
    const rssEnd = rssMb(server.pid!)
    const ties: string[] = []
    let lost = 0
    for (const [i, t] of targets.entries()) {
      const d = await (await fetch(`${base}${t.url}`)).json()
      ties.push(...(d.flags?.ties ?? []))
      const moved = Number(BigInt(d.block?.version ?? 0) - initial[i])
      lost += Math.abs(accepted[i] - moved)
    }
    const heldSteps = steps.filter((s) => s.held)
    const capacity = heldSteps.length ? Math.max(...heldSteps.map((s) => s.offeredPerS)) : 0
    const all = steps.reduce(
      (a, s) => ({
        hit: a.hit + s.cache.hit,
        joined: a.joined + s.cache.joined,
        computed: a.computed + s.cache.computed,
        uncached: a.uncached + s.cache.uncached,
      }),
      { hit: 0, joined: 0, computed: 0, uncached: 0 },
    )
    const cacheable = all.hit + all.joined + all.computed
    const report = {
      at: new Date().toISOString(),
      machine: {
        cpus: os.cpus().length,
        node: process.version,
        loadAvgAtStart,
        loadAvgAtEnd: os.loadavg().map((x) => Math.round(x * 10) / 10),
      },
      data: DATA_DIR ? `existing data (${path.basename(DATA_DIR)}), pool over its ${pool.runs} newest runs` : 'demo',
      method: `offered rate stepped through ${RATES.join(', ')} req/s, ${STEP_S} s per step; held = achieved ≥ 95% of offered, p99 ≤ ${P99_LIMIT_MS} ms, no errors`,
      capacity: { sustainedReqPerS: capacity, p99LimitMs: P99_LIMIT_MS },
      workload: {
        poolSize: pool.size,
        runs: pool.runs,
        byKind: pool.byKind,
        distinctRequestsIssued: seen.size,
        cache: {
          ...all,
          hitRate: cacheable ? Math.round(((all.hit + all.joined) / cacheable) * 1000) / 1000 : 0,
          ofAllRequests: Math.round(((all.hit + all.joined) / Math.max(1, cacheable + all.uncached)) * 1000) / 1000,
        },
      },
      engine: engineCost,
      steps,
      writes: { ...writes, lost, versionTies: ties.length, writers: writers.length, pauseMs: WRITER_PAUSE_MS },
      serverRssMb: { start: rssStart, afterEachStep: steps.map((s) => s.rssMb), end: rssEnd },
    }
    fs.mkdirSync('bench', { recursive: true })
    // One file, both data sets: { demo: {sustainedReqPerS, …}, bulk: {sustainedReqPerS, …} }; a run replaces its own part.
    const out = 'bench/load-results.json'
    const part = DATA_DIR ? 'bulk' : 'demo'
    let doc: Record<string, unknown> = {}
    try {
      const old = JSON.parse(fs.readFileSync(out, 'utf8')) as Record<string, unknown>
      // The file an earlier version wrote held the demo run alone, at the top level.
      doc =
        old.data === 'demo'
          ? {
              demo: {
                sustainedReqPerS: (old.capacity as { sustainedReqPerS?: number })?.sustainedReqPerS ?? null,
                ...old,
              },
            }
          : old
    } catch {
      // No earlier results.
    }
    doc[part] = {
      sustainedReqPerS: report.capacity.sustainedReqPerS,
      dataDir: DATA_DIR ? path.basename(DATA_DIR) : null,
      ...report,
    }
    fs.writeFileSync(out, `${JSON.stringify(doc, null, 2)}\n`)
    console.log(
      JSON.stringify(
        {
          capacity: report.capacity,
          engineCeiling: engineCost?.ceilingReqPerS ?? null,
          cache: report.workload.cache,
          writes: report.writes,
          serverRssMb: report.serverRssMb,
        },
        null,
        2,
      ),
    )
    if (writes.other || ties.length || lost) process.exitCode = 1
  } finally {
    server.kill('SIGTERM')
    await new Promise((r) => setTimeout(r, 1000))
    if (!DATA_DIR) fs.rmSync(dataDir, { recursive: true, force: true })
  }
}

main().catch((err) => {
  console.error(err)
  process.exit(1)
})
