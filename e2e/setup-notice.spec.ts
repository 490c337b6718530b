import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { expect, test, type Page } from '@playwright/test'
import { childEnv, freePort, launch, stop, until, type Proc } from './processes'

/*
 * A remote server set up without the run index and the history capture (`db:init --no-index
 * --no-history`): the built app in REMOTE mode, beside the suite's embedded server (which installs
 * both by itself), against tests/helpers/clickhouse-http-peer.ts. The runs page says what is
 * missing and how to install it; once the init command ran in full, it says nothing.
 */

const ROOT = path.resolve(__dirname, '..')
const NEXT_BIN = path.join(ROOT, 'node_modules', 'next', 'dist', 'bin', 'next')
const PEER_SCRIPT = path.join(ROOT, 'tests', 'helpers', 'clickhouse-http-peer.ts')
const INIT_SCRIPT = path.join(ROOT, 'scripts', 'db-init.ts')
const SCREENS = path.join(ROOT, 'test-results', 'screens')
const CH_USER = 'loom_e2e'
const CH_PASSWORD = 'setup-notice-peer-secret'

let peerPort = 0
let appPort = 0
let app = ''
let peerData = ''
let peer: Proc | undefined
let server: Proc | undefined

function remoteEnv(): Record<string, string> {
  return {
    CLICKHOUSE_URL: `http://127.0.0.1:${peerPort}`,
    CLICKHOUSE_USER: CH_USER,
    CLICKHOUSE_PASSWORD: CH_PASSWORD,
    LOOM_RUNS_DATA_DIR: path.join(peerData, 'unused-embedded'),
  }
}

async function dbInit(args: string[]): Promise<string> {
  const p = launch('db:init', ['--import', 'tsx', INIT_SCRIPT, ...args], childEnv(remoteEnv()))
  const exit = await Promise.race([p.exited, new Promise<null>((r) => setTimeout(() => r(null), 90_000))])
  if (!exit) await stop(p, 1_000)
  if (exit?.code !== 0) throw new Error(`db:init ${args.join(' ')} failed (${JSON.stringify(exit)}):\n${p.log()}`)
  return p.log()
}

test.describe.configure({ mode: 'serial' })

test.beforeAll(async () => {
  test.setTimeout(300_000)
  peerPort = freePort()
  do appPort = freePort()
  while (appPort === peerPort)
  app = `http://127.0.0.1:${appPort}`
  peerData = fs.mkdtempSync(path.join(os.tmpdir(), 'loom-runs-e2e-setup-'))
  peer = launch('clickhouse-http-peer', ['--import', 'tsx', PEER_SCRIPT, peerData, String(peerPort)], childEnv({ PEER_USER: CH_USER, PEER_PASSWORD: CH_PASSWORD }))
  await until(peer, `"listening ${peerPort}"`, 120_000, () => peer!.log().includes(`listening ${peerPort}\n`))
  await dbInit(['--no-index', '--no-history'])
  server = launch(
    'next start (remote mode)',
    [NEXT_BIN, 'start', '--hostname', '127.0.0.1', '--port', String(appPort)],
    childEnv({ ...remoteEnv(), HOST: '127.0.0.1', PORT: String(appPort) }),
  )
  await until(server, 'answer from /api/health', 120_000, async () => {
    try {
      return (await fetch(`${app}/api/health`, { signal: AbortSignal.timeout(10_000) })).ok
    } catch {
      return false
    }
  })
})

test.afterAll(async () => {
  test.setTimeout(90_000)
  await stop(server)
  await stop(peer)
  if (peerData) fs.rmSync(peerData, { recursive: true, force: true })
})

test.afterEach(async ({}, testInfo) => {
  if (testInfo.status === testInfo.expectedStatus) return
  if (server) await testInfo.attach('next-start.log', { body: server.log(), contentType: 'text/plain' })
  if (peer) await testInfo.attach('clickhouse-http-peer.log', { body: peer.log(), contentType: 'text/plain' })
})

/** Reloads, and returns the health answer the page itself fetched (the notice's source). */
async function reloadAndReadHealth(page: Page) {
  const health = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/health', { timeout: 30_000 })
  await page.reload()
  return (await health).json()
}

const notice = (page: Page) => page.getByRole('region', { name: /missing part of the console's setup/ })

test('the runs page names the missing run index and history capture with the init command; dismissing is remembered; none after a full init', async ({ page, request }) => {
  test.setTimeout(240_000)
  const health = await (await request.get(`${app}/api/health`)).json()
  expect(health.mode).toBe('remote')
  expect(health.setup).toEqual({ runIndex: false, history: false, command: 'npm run db:init' })

  fs.mkdirSync(SCREENS, { recursive: true })
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme })
    for (const width of [1400, 390]) {
      await page.setViewportSize({ width, height: 900 })
      await page.goto(`${app}/`)
      const n = notice(page)
      await expect(n).toBeVisible()
      await expect(n).toContainText('The run index is not installed')
      await expect(n).toContainText('The history capture is not installed')
      await expect(n.getByText('npm run db:init', { exact: true })).toBeVisible()
      await page.screenshot({ path: path.join(SCREENS, `setup-notice-${width}-${scheme}.png`) })
    }
  }

  // Dismiss with the keyboard alone.
  const dismiss = notice(page).getByRole('button', { name: 'Dismiss' })
  let reached = false
  for (let i = 0; i < 40 && !reached; i++) {
    await page.keyboard.press('Tab')
    reached = await dismiss.evaluate((el) => el === document.activeElement)
  }
  expect(reached, 'Dismiss is reachable with Tab').toBe(true)
  await page.keyboard.press('Enter')
  await expect(notice(page)).toHaveCount(0)
  await reloadAndReadHealth(page)
  await expect(page.getByRole('heading', { name: 'Runs', level: 1 })).toBeVisible()
  await expect(notice(page)).toHaveCount(0)

  // The full init installs both; the notice has nothing left to say, dismissed or not.
  const out = await dbInit([])
  expect(out).toContain('run index installed')
  expect((await (await request.get(`${app}/api/health`)).json()).setup).toEqual({ runIndex: true, history: true, command: 'npm run db:init' })
  await page.evaluate(() => localStorage.clear())
  const answer = await reloadAndReadHealth(page)
  expect(answer.setup).toEqual({ runIndex: true, history: true, command: 'npm run db:init' })
  await expect(page.getByRole('heading', { name: 'Runs', level: 1 })).toBeVisible()
  await expect(notice(page)).toHaveCount(0)
})
