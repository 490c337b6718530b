/**
 * Bounded load test on loopback: the built server on a fresh demo database, rounds of mixed
 * reads at 50 connections for 30 s each (autocannon) while a writer loop edits a few checkpoints
 * with conflict checks. Reports throughput, latency, errors, write outcomes, version ties and
 * server memory at start, after each round and at the end. Results: bench/load-results.json.
 *
 *   npm run build && npm run load-test [-- --duration 30 --connections 50 --rounds 6]
 */
import { execFileSync, spawn } from 'node:child_process'
import fs from 'node:fs'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import autocannon from 'autocannon'
import { DEMO_RUNS } from '../lib/demo/scenarios'
import { encodeSegment } from '../lib/links'

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`)
  return i > 0 ? Number(process.argv[i + 1]) : fallback
}
const DURATION = arg('duration', 30)
const CONNECTIONS = arg('connections', 50)
/** Rounds of DURATION seconds on the same server: the RSS after each shows whether memory levels off. */
const ROUNDS = arg('rounds', 6)

async function freePort(): Promise<number> {
  const s = net.createServer()
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', () => r()))
  const port = (s.address() as net.AddressInfo).port
  await new Promise((r) => s.close(r))
  return port
}

/** Resident memory of a process and its descendants, in MB. */
function rssMb(pid: number): number {
  const out = execFileSync('ps', ['-e', '-o', 'pid=,ppid=,rss='], { encoding: 'utf8' })
  const rows = out.trim().split('\n').map((l) => l.trim().split(/\s+/).map(Number))
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

async function main() {
  const port = await freePort()
  const base = `http://127.0.0.1:${port}`
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'loom-runs-load-'))
  const server = spawn(process.execPath, ['node_modules/next/dist/bin/next', 'start', '--hostname', '127.0.0.1', '--port', String(port)], {
    env: { ...process.env, LOOM_RUNS_DATA_DIR: dataDir, NEXT_TELEMETRY_DISABLED: '1' },
    stdio: ['ignore', 'ignore', 'inherit'],
  })
  try {
    process.stderr.write('starting the server and seeding demo data…\n')
    for (let i = 0; ; i++) {
      try {
        if ((await fetch(`${base}/api/health`)).ok) break
      } catch {
        // not listening yet
      }
      if (i > 240) throw new Error('server did not become ready')
      await new Promise((r) => setTimeout(r, 500))
    }
    const rssStart = rssMb(server.pid!)
    const reads = [
      '/api/runs',
      '/api/runs?status=failed',
      '/api/runs?org=acme&limit=20',
      runPath(DEMO_RUNS.batch),
      `${runPath(DEMO_RUNS.batch)}/blocks`,
      `${runPath(DEMO_RUNS.nearMiss)}/blocks/checkpoint?userId=u-7&sessionId=s2`,
      `${runPath(DEMO_RUNS.researchReader)}/searches`,
      `${runPath(DEMO_RUNS.researchReader)}/memories`,
      `${runPath(DEMO_RUNS.batch)}/timeline`,
    ]
    // Writers: a few blocks of finished runs, each edited in a loop with its latest version.
    type Listed = { org: string; namespace: string; agent: string; runId: string; checkpoint: { isDeleted: boolean; userId: string; sessionId: string } | null }
    const finished = ((await (await fetch(`${base}/api/runs?status=succeeded&limit=200`)).json()).runs as Listed[]).filter(
      (r) => r.checkpoint && !r.checkpoint.isDeleted,
    )
    const targets = finished.slice(0, 3).map((r) => ({
      ...r,
      url: `${runPath(r)}/blocks/checkpoint?userId=${encodeURIComponent(r.checkpoint!.userId)}&sessionId=${encodeURIComponent(r.checkpoint!.sessionId)}`,
    }))
    if (targets.length === 0) throw new Error('no finished run with a live checkpoint to edit')
    const writes = { ok: 0, conflict: 0, other: 0, notFound: 0 }
    let stop = false
    const writer = async (t: (typeof targets)[number], n: number) => {
      while (!stop) {
        const cur = await (await fetch(`${base}${t.url}`)).json()
        if (!cur.block) {
          writes.notFound++
          return
        }
        const res = await fetch(`${base}${t.url}`, {
          method: 'PUT',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ content: `load edit ${n}-${Date.now()}`, expectedVersion: cur.block.version, reason: 'load test', force: true }),
        })
        if (res.status === 200) writes.ok++
        else if (res.status === 409) writes.conflict++
        else writes.other++
      }
    }
    const writers = targets.flatMap((t, i) => [writer(t, i * 2), writer(t, i * 2 + 1)])
    process.stderr.write(`${ROUNDS} × ${DURATION} s of reads at ${CONNECTIONS} connections, plus ${writers.length} writers on ${targets.length} blocks…\n`)
    const rounds: { requests: number; throughputPerS: number; p50Ms: number; p99Ms: number; errors: number; timeouts: number; non2xx: number; rssMb: number }[] = []
    for (let round = 0; round < ROUNDS; round++) {
      const r = await autocannon({
        url: base,
        connections: CONNECTIONS,
        duration: DURATION,
        requests: reads.map((p) => ({ method: 'GET', path: p })),
      })
      rounds.push({
        requests: r.requests.total,
        throughputPerS: r.requests.average,
        p50Ms: r.latency.p50,
        p99Ms: r.latency.p99,
        errors: r.errors,
        timeouts: r.timeouts,
        non2xx: r.non2xx,
        rssMb: rssMb(server.pid!),
      })
      process.stderr.write(`round ${round + 1}: ${r.requests.total} reads, p50 ${r.latency.p50} ms, RSS ${rounds[round].rssMb} MB\n`)
    }
    stop = true
    await Promise.all(writers)
    const rssEnd = rssMb(server.pid!)
    const sum = (k: 'requests' | 'errors' | 'timeouts' | 'non2xx') => rounds.reduce((n, r) => n + r[k], 0)
    const ties: string[] = []
    for (const t of targets) {
      const d = await (await fetch(`${base}${t.url}`)).json()
      ties.push(...(d.flags?.ties ?? []))
    }
    const report = {
      at: new Date().toISOString(),
      machine: { cpus: os.cpus().length, node: process.version },
      durationS: DURATION * ROUNDS,
      connections: CONNECTIONS,
      reads: {
        requests: sum('requests'),
        throughputPerS: Math.round((sum('requests') / (DURATION * ROUNDS)) * 100) / 100,
        p50Ms: Math.max(...rounds.map((r) => r.p50Ms)),
        p99Ms: Math.max(...rounds.map((r) => r.p99Ms)),
        errors: sum('errors'),
        timeouts: sum('timeouts'),
        non2xx: sum('non2xx'),
      },
      rounds,
      writes: { ...writes, versionTies: ties.length },
      serverRssMb: { start: rssStart, afterEachRound: rounds.map((r) => r.rssMb), end: rssEnd },
    }
    fs.mkdirSync('bench', { recursive: true })
    fs.writeFileSync('bench/load-results.json', `${JSON.stringify(report, null, 2)}\n`)
    console.log(JSON.stringify(report, null, 2))
    if (sum('errors') || sum('non2xx') || writes.other || ties.length) process.exitCode = 1
  } finally {
    server.kill('SIGTERM')
    fs.rmSync(dataDir, { recursive: true, force: true })
  }
}

main().catch((err) => {
  console.error(err)
  process.exit(1)
})
