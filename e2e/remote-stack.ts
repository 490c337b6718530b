import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import type { TestInfo } from '@playwright/test'
import { childEnv, freePort, launch, stop, until, type Proc } from './processes'
import { SERVER_NODE_ARGS } from '../scripts/server-node'

const ROOT = path.resolve(__dirname, '..')
const NEXT_BIN = path.join(ROOT, 'node_modules', 'next', 'dist', 'bin', 'next')
const PEER_SCRIPT = path.join(ROOT, 'tests', 'helpers', 'clickhouse-http-peer.ts')
const CH_USER = 'loom_e2e'

/**
 * A second app server of our own in REMOTE mode, beside the suite's embedded-mode server, talking
 * over HTTP to tests/helpers/clickhouse-http-peer.ts on its own data directory. The credentials
 * are the stack's own, so whatever CLICKHOUSE_* the suite runs with (scripts/test-all.sh exports
 * a sentinel password) cannot leak into this server.
 */
export class RemoteStack {
  readonly peerPort = freePort()
  readonly appPort: number
  readonly app: string
  readonly peerData: string
  peer: Proc | undefined
  server: Proc | undefined

  constructor(
    name: string,
    private readonly password: string,
    private readonly extraEnv: Record<string, string> = {},
  ) {
    let port = freePort()
    while (port === this.peerPort) port = freePort()
    this.appPort = port
    this.app = `http://127.0.0.1:${port}`
    this.peerData = fs.mkdtempSync(path.join(os.tmpdir(), `loom-runs-e2e-${name}-`))
  }

  /** Remote mode against the peer. */
  env(): Record<string, string> {
    return {
      CLICKHOUSE_URL: `http://127.0.0.1:${this.peerPort}`,
      CLICKHOUSE_USER: CH_USER,
      CLICKHOUSE_PASSWORD: this.password,
      ...this.extraEnv,
      // Unused in remote mode; never the suite's embedded data directory.
      LOOM_RUNS_DATA_DIR: path.join(this.peerData, 'unused-embedded'),
    }
  }

  /** Starts the peer (again, after a stop: same port, same data). */
  async startPeer(): Promise<Proc> {
    const p = launch(
      'clickhouse-http-peer',
      [...SERVER_NODE_ARGS, PEER_SCRIPT, this.peerData, String(this.peerPort)],
      childEnv({ PEER_USER: CH_USER, PEER_PASSWORD: this.password }),
    )
    await until(p, `"listening ${this.peerPort}"`, 120_000, () => p.log().includes(`listening ${this.peerPort}\n`))
    this.peer = p
    return p
  }

  /** Runs a script of the repository against the peer; its output, or a failure with it. */
  async runScript(label: string, script: string, args: string[]): Promise<string> {
    const p = launch(label, [...SERVER_NODE_ARGS, path.join(ROOT, script), ...args], childEnv(this.env()))
    const exit = await Promise.race([p.exited, new Promise<null>((r) => setTimeout(() => r(null), 90_000))])
    if (!exit) await stop(p, 1_000)
    if (exit?.code !== 0) throw new Error(`${label} failed (${JSON.stringify(exit)}):\n${p.log()}`)
    return p.log()
  }

  /** Starts the built app against the peer and waits for its health answer; returns the mode it reports. */
  async startApp(): Promise<unknown> {
    const p = launch(
      'next start (remote mode)',
      [NEXT_BIN, 'start', '--hostname', '127.0.0.1', '--port', String(this.appPort)],
      childEnv({ ...this.env(), HOST: '127.0.0.1', PORT: String(this.appPort) }),
    )
    this.server = p
    let mode: unknown
    await until(p, 'answer from /api/health', 120_000, async () => {
      try {
        const res = await fetch(`${this.app}/api/health`, { signal: AbortSignal.timeout(10_000) })
        if (!res.ok) return false
        mode = ((await res.json()) as { mode?: unknown }).mode
        return true
      } catch {
        return false
      }
    })
    return mode
  }

  async stopAll(): Promise<void> {
    await stop(this.server)
    await stop(this.peer)
    fs.rmSync(this.peerData, { recursive: true, force: true })
  }

  /** After a failed test: both servers' logs. */
  async attachLogs(testInfo: TestInfo): Promise<void> {
    if (testInfo.status === testInfo.expectedStatus) return
    if (this.server) await testInfo.attach('next-start.log', { body: this.server.log(), contentType: 'text/plain' })
    if (this.peer)
      await testInfo.attach('clickhouse-http-peer.log', { body: this.peer.log(), contentType: 'text/plain' })
  }
}
