import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { test } from '@playwright/test'

/** Child processes for specs that start servers of their own beside the suite's. */

const ROOT = path.resolve(__dirname, '..')

export function freePort(): number {
  // Without colours: Playwright's workers run with FORCE_COLOR set.
  const env = { ...process.env, FORCE_COLOR: '0' }
  const out = spawnSync(process.execPath, [path.join(ROOT, 'scripts', 'free-port.mjs')], { encoding: 'utf8', env })
  const port = Number(out.stdout.trim())
  if (!Number.isInteger(port) || port <= 0)
    throw new Error(`free-port.mjs printed ${JSON.stringify(out.stdout)}: ${out.stderr}`)
  return port
}

// --- Child processes ---------------------------------------------------------------------------

export type Exit = { code: number | null; signal: NodeJS.Signals | null }
export type Proc = { name: string; child: ChildProcess; exited: Promise<Exit>; log: () => string }

const alive = new Set<ChildProcess>()
// Last resort if the worker goes away without running afterAll.
process.once('exit', () => {
  for (const child of alive) child.kill('SIGKILL')
})

/** Every CLICKHOUSE_*, LOOM_*, PEER_*, HOST and PORT of ours, nothing inherited for them. */
export function childEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  // NEXT_DIST_DIR passes through: next.config.mjs reads it to find the build.
  const env = { ...process.env }
  for (const key of Object.keys(env))
    if (/^(CLICKHOUSE_|LOOM_|PEER_)/.test(key) || key === 'HOST' || key === 'PORT') delete env[key]
  return Object.assign(env, { NEXT_TELEMETRY_DISABLED: '1', LOOM_RUNS_DEMO: '0', FORCE_COLOR: '0' }, extra)
}

export function launch(name: string, args: string[], env: NodeJS.ProcessEnv): Proc {
  const child = spawn(process.execPath, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] })
  alive.add(child)
  let log = ''
  const keep = (d: Buffer) => (log = (log + d.toString('utf8')).slice(-30_000))
  child.stdout!.on('data', keep)
  child.stderr!.on('data', keep)
  const exited = new Promise<Exit>((resolve) =>
    child.once('exit', (code, signal) => {
      alive.delete(child)
      resolve({ code, signal })
    }),
  )
  return { name, child, exited, log: () => log }
}

export const running = (p: Proc): boolean => p.child.exitCode === null && p.child.signalCode === null

/** Resolves once `ready()` holds; fails early if the process exits, or after `ms`. */
export async function until(p: Proc, what: string, ms: number, ready: () => boolean | Promise<boolean>) {
  const deadline = Date.now() + ms
  for (;;) {
    if (await ready()) return
    if (!running(p))
      throw new Error(`${p.name} exited (${p.child.exitCode ?? p.child.signalCode}) before ${what}:\n${p.log()}`)
    if (Date.now() > deadline) throw new Error(`${p.name}: no ${what} within ${ms} ms:\n${p.log()}`)
    await new Promise((r) => setTimeout(r, 200))
  }
}

/** Resolves once GET /api/health, asked with `ask`, answers `status` (no answer yet: ask again); see `until`. */
export async function untilHealth(p: Proc, ms: number, status: number, ask: () => Promise<{ status: number }>) {
  await until(p, 'an answer on /api/health', ms, async () => {
    try {
      return (await ask()).status === status
    } catch {
      return false
    }
  })
}

/** SIGTERM, then its exit status; SIGKILL if it has not exited within `ms`. */
export async function stop(p: Proc | undefined, ms = 30_000): Promise<Exit | null> {
  if (!p) return null
  if (!running(p)) return p.exited
  p.child.kill('SIGTERM')
  let timer: NodeJS.Timeout | undefined
  const late = new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), ms)))
  const exit = await Promise.race([p.exited, late]).finally(() => clearTimeout(timer))
  if (exit) return exit
  p.child.kill('SIGKILL')
  await p.exited
  return null
}

/** A server of a suite's own: its port, its data folder, and the process once launched. */
export type OwnServer = { port: number; dataDir: string; server?: Proc }

/**
 * Starts a server of the suite's own before its tests, on a free port with a fresh data folder
 * (named from `prefix`): `start` launches it into `s.server` and waits for it, all within
 * `timeoutMs`. After the tests it is stopped and its folder removed.
 */
export function ownServer(prefix: string, timeoutMs: number, start: (s: OwnServer) => Promise<void>): OwnServer {
  const s: OwnServer = { port: 0, dataDir: '' }
  test.beforeAll(async () => {
    test.setTimeout(timeoutMs)
    s.port = freePort()
    s.dataDir = fs.mkdtempSync(path.join(os.tmpdir(), prefix))
    await start(s)
  })
  test.afterAll(async () => {
    await stop(s.server)
    if (s.dataDir) fs.rmSync(s.dataDir, { recursive: true, force: true })
  })
  return s
}
