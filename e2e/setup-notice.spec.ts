import fs from 'node:fs'
import path from 'node:path'
import { expect, test, type Page } from '@playwright/test'
import { RemoteStack } from './remote-stack'

/*
 * A remote server set up without the run index and the history capture (`db:init --no-index
 * --no-history`): the built app in REMOTE mode, beside the suite's embedded server (which installs
 * both by itself), against tests/helpers/clickhouse-http-peer.ts. The runs page says what is
 * missing and how to install it; once the init command ran in full, it says nothing.
 */

const ROOT = path.resolve(__dirname, '..')
const SCREENS = path.join(ROOT, 'test-results', 'screens')

let stack: RemoteStack
let app = ''

const dbInit = (args: string[]) => stack.runScript(`db:init ${args.join(' ')}`, 'scripts/db-init.ts', args)

test.describe.configure({ mode: 'serial' })

test.beforeAll(async () => {
  test.setTimeout(300_000)
  stack = new RemoteStack('setup', 'setup-notice-peer-secret')
  app = stack.app
  await stack.startPeer()
  await dbInit(['--no-index', '--no-history'])
  await stack.startApp()
})

test.afterAll(async () => {
  test.setTimeout(90_000)
  await stack?.stopAll()
})

test.afterEach(async ({}, testInfo) => {
  await stack?.attachLogs(testInfo)
})

/** Reloads, and returns the health answer the page itself fetched (the notice's source). */
async function reloadAndReadHealth(page: Page) {
  const health = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/health', { timeout: 30_000 })
  await page.reload()
  return (await health).json()
}

const notice = (page: Page) => page.getByRole('region', { name: /missing part of the console's setup/ })

test('the runs page names the missing run index and history capture with the init command; dismissing is remembered; none after a full init', async ({
  page,
  request,
}) => {
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
  expect((await (await request.get(`${app}/api/health`)).json()).setup).toEqual({
    runIndex: true,
    history: true,
    command: 'npm run db:init',
  })
  await page.evaluate(() => localStorage.clear())
  const answer = await reloadAndReadHealth(page)
  expect(answer.setup).toEqual({ runIndex: true, history: true, command: 'npm run db:init' })
  await expect(page.getByRole('heading', { name: 'Runs', level: 1 })).toBeVisible()
  await expect(notice(page)).toHaveCount(0)
})
