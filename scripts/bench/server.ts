/**
 * The built app for the benchmark, kept apart from the working tree's `.next` (which the e2e
 * run builds and serves): the sources are copied to .data/bench-build and built there when they
 * changed. That copy has no lockfile, so Next resolves its packages from the repository's
 * node_modules. The server is `next start` on a free port, in its own process group.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import crypto from 'node:crypto'
import fs from 'node:fs'
import net from 'node:net'
import path from 'node:path'
// @ts-expect-error -- a plain ES module script without type declarations
import { BUILD_INPUTS } from '../build-stamp.mjs'

const ROOT = path.resolve(__dirname, '..', '..')
export const BUILD_DIR = path.join(ROOT, '.data', 'bench-build')
// What a production build reads (scripts/build-stamp.mjs), less the lockfile, plus Next's type stub.
const SOURCES: string[] = [...BUILD_INPUTS.filter((s: string) => s !== 'package-lock.json'), 'next-env.d.ts']
const NEXT_BIN = path.join(ROOT, 'node_modules', 'next', 'dist', 'bin', 'next')

function walk(p: string, out: string[]) {
  const st = fs.statSync(p)
  if (st.isDirectory()) for (const e of fs.readdirSync(p).sort()) walk(path.join(p, e), out)
  else out.push(p)
}

/** Hash of every source file that goes into the build. */
export function sourceHash(): string {
  const h = crypto.createHash('sha256')
  for (const s of SOURCES) {
    const abs = path.join(ROOT, s)
    if (!fs.existsSync(abs)) continue
    const files: string[] = []
    walk(abs, files)
    for (const f of files) h.update(path.relative(ROOT, f)).update('\0').update(fs.readFileSync(f)).update('\0')
  }
  return h.digest('hex').slice(0, 16)
}

export type BuildMode = 'if-stale' | 'always' | 'if-missing' | 'never'

/** Builds the copy when needed; returns what it did. */
export async function ensureBuild(
  mode: BuildMode,
  log: (s: string) => void,
): Promise<{ built: boolean; ms: number; hash: string }> {
  const hash = sourceHash()
  const stamp = path.join(BUILD_DIR, '.source-hash')
  const hasBuild = fs.existsSync(path.join(BUILD_DIR, '.next', 'BUILD_ID'))
  const current = hasBuild && fs.existsSync(stamp) && fs.readFileSync(stamp, 'utf8').trim() === hash
  const need = mode === 'always' || (mode === 'if-stale' && !current) || (mode === 'if-missing' && !hasBuild)
  if (!need) {
    if (!hasBuild) throw new Error(`No build in ${BUILD_DIR} (run without --build never)`)
    if (!current) log(`  using an existing build that is older than the sources (--build ${mode})`)
    return { built: false, ms: 0, hash }
  }
  fs.mkdirSync(BUILD_DIR, { recursive: true })
  for (const s of SOURCES) {
    fs.rmSync(path.join(BUILD_DIR, s), { recursive: true, force: true })
    if (fs.existsSync(path.join(ROOT, s))) fs.cpSync(path.join(ROOT, s), path.join(BUILD_DIR, s), { recursive: true })
  }
  log(`  building the app in ${path.relative(ROOT, BUILD_DIR)} (next build) ...`)
  const started = Date.now()
  const logFile = path.join(BUILD_DIR, 'build.log')
  const code = await new Promise<number>((resolve) => {
    const out = fs.openSync(logFile, 'w')
    const child = spawn(process.execPath, [NEXT_BIN, 'build'], {
      cwd: BUILD_DIR,
      env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1', NODE_ENV: 'production' },
      stdio: ['ignore', out, out],
    })
    child.on('exit', (c) => resolve(c ?? 1))
  })
  if (code !== 0) {
    const tail = fs.readFileSync(logFile, 'utf8').split('\n').slice(-30).join('\n')
    throw new Error(`next build failed (exit ${code}); see ${logFile}\n${tail}`)
  }
  fs.writeFileSync(stamp, `${hash}\n`)
  return { built: true, ms: Date.now() - started, hash }
}

/** Waits for the server at `base` to answer its health check, asking every 500 ms, and gives up after `tries` more asks. */
export async function waitForHealth(base: string, tries: number): Promise<void> {
  for (let i = 0; ; i++) {
    try {
      if ((await fetch(`${base}/api/health`)).ok) return
    } catch {
      // not listening yet
    }
    if (i > tries) throw new Error('server did not become ready')
    await new Promise((r) => setTimeout(r, 500))
  }
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer()
    srv.on('error', reject)
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo
      srv.close(() => resolve(port))
    })
  })
}

/** Starts the server `npm start` runs (scripts/start.mjs, the standalone build) on `port` over `dataDir`. */
export function spawnStartScript(
  port: number,
  dataDir: string,
  options: { demo: boolean; detached?: boolean },
): ChildProcess {
  return spawn(process.execPath, ['scripts/start.mjs'], {
    env: {
      ...process.env,
      HOST: '127.0.0.1',
      PORT: String(port),
      LOOM_RUNS_DATA_DIR: dataDir,
      LOOM_RUNS_DEMO: options.demo ? '1' : '0',
      NEXT_TELEMETRY_DISABLED: '1',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
    ...(options.detached ? { detached: true } : {}),
  })
}

export type RunningServer = {
  url: string
  pid: number
  startMs: number
  stop: () => Promise<void>
  rssMb: () => number | null
  output: () => string
}

/** `next start` on the benchmark data, with the diagnostics headers on. */
export async function startServer(dataDir: string, log: (s: string) => void): Promise<RunningServer> {
  const port = await freePort()
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    LOOM_RUNS_DATA_DIR: dataDir,
    LOOM_RUNS_DEMO: '0',
    LOOM_RUNS_BENCH: '1',
    HOST: '127.0.0.1',
    PORT: String(port),
    NEXT_TELEMETRY_DISABLED: '1',
    NODE_ENV: 'production',
  }
  delete env.CLICKHOUSE_URL
  delete env.LOOM_RUNS_USERS
  const started = Date.now()
  const child: ChildProcess = spawn(
    process.execPath,
    [NEXT_BIN, 'start', '--hostname', '127.0.0.1', '--port', String(port)],
    {
      cwd: BUILD_DIR,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    },
  )
  let output = ''
  const keep = (b: Buffer) => {
    output = (output + b.toString()).slice(-20_000)
  }
  child.stdout?.on('data', keep)
  child.stderr?.on('data', keep)
  let exited: number | null = null
  const exitedP = new Promise<void>((resolve) =>
    child.on('exit', (c) => {
      exited = c ?? -1
      resolve()
    }),
  )
  const url = `http://127.0.0.1:${port}`
  const pid = child.pid!
  const stop = async () => {
    if (exited !== null) return
    try {
      process.kill(-pid, 'SIGTERM')
    } catch {
      /* already gone */
    }
    const t = setTimeout(() => {
      try {
        process.kill(-pid, 'SIGKILL')
      } catch {
        /* already gone */
      }
    }, 10_000)
    await exitedP
    clearTimeout(t)
  }
  // Ready when /api/health says the schema phase is ready (the run index may backfill first).
  for (;;) {
    if (exited !== null) throw new Error(`the server exited (${exited}) before it was ready:\n${output.slice(-3000)}`)
    if (Date.now() - started > 600_000) {
      await stop()
      throw new Error(`the server was not ready within 10 minutes:\n${output.slice(-3000)}`)
    }
    try {
      const res = await fetch(`${url}/api/health`)
      if (res.ok) {
        const body = (await res.json()) as { schema?: { phase?: string; detail?: string } }
        if (body.schema?.phase === 'ready') break
        if (body.schema?.phase === 'failed') {
          await stop()
          throw new Error(`the server could not prepare the database: ${body.schema.detail}\n${output.slice(-3000)}`)
        }
      }
    } catch (err) {
      if (err instanceof Error && err.message.startsWith('the server')) throw err
    }
    await new Promise((r) => setTimeout(r, 300))
  }
  const startMs = Date.now() - started
  log(`  server ready on ${url} in ${(startMs / 1000).toFixed(1)}s (pid ${pid})`)
  const rssMb = () => {
    // The next-server process is the child of `next start` or the child itself.
    try {
      const pids = [
        pid,
        ...fs.readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number),
      ]
      let total = 0
      for (const p of pids) {
        const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${p}/status`, 'utf8'))
        if (m) total += Number(m[1])
      }
      return Math.round(total / 1024)
    } catch {
      return null
    }
  }
  return { url, pid, startMs, stop, rssMb, output: () => output }
}
