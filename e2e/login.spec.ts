import path from 'node:path'
import { expect, test } from '@playwright/test'
import { hashPassword } from '../lib/auth/passwords'
import { childEnv, launch, ownServer, untilHealth } from './processes'

/*
 * A console with users: a real login, where it goes afterwards, and a logout that ends the
 * session on the server. Its own `next start` beside the suite's server, on loopback.
 */

const ROOT = path.resolve(__dirname, '..')
const NEXT_BIN = path.join(ROOT, 'node_modules', 'next', 'dist', 'bin', 'next')

let base = ''

ownServer('loom-runs-e2e-login-', 180_000, async (s) => {
  base = `http://127.0.0.1:${s.port}`
  const users = `olga:operator:${await hashPassword('op-secret')}`
  s.server = launch(
    'next start (users)',
    [NEXT_BIN, 'start', '-H', '127.0.0.1', '-p', String(s.port)],
    childEnv({ LOOM_RUNS_DATA_DIR: s.dataDir, LOOM_RUNS_USERS: users }),
  )
  // Everything but the login needs a session here: a 401 means the server is up.
  await untilHealth(s.server, 150_000, 401, () => fetch(`${base}/api/health`))
})

for (const next of [
  '/\\evil.example',
  '/\t/evil.example',
  '//evil.example/x',
  '/.//evil.example/x',
  '/%2F%2Fevil.example',
  '/%5Cevil.example',
  '/\n/evil.example',
]) {
  test(`after a real login, next=${JSON.stringify(next)} stays on the console`, async ({ page }) => {
    await page.goto(`${base}/login?next=${encodeURIComponent(next)}`)
    await page.getByLabel('Name').fill('olga')
    await page.getByLabel('Password').fill('op-secret')
    await page.getByRole('button', { name: 'Log in' }).click()
    await page.waitForURL((u) => u.origin !== 'null' && !u.pathname.startsWith('/login'), { timeout: 20_000 })
    expect(new URL(page.url()).origin).toBe(base)
    expect(new URL(page.url()).pathname).toBe('/')
  })
}

test('a page asks for a login and comes back to it; logout ends the session on the server', async ({ page }) => {
  await page.goto(`${base}/schema`)
  await expect(page).toHaveURL(/\/login\?next=%2Fschema/)
  await page.getByLabel('Name').fill('olga')
  await page.getByLabel('Password').fill('op-secret')
  await page.getByRole('button', { name: 'Log in' }).click()
  await expect(page).toHaveURL(`${base}/schema`)
  await expect(page.getByTitle('Signed in as olga (operator)')).toHaveText('olga · operator')
  for (const width of [1400, 390]) {
    await page.setViewportSize({ width, height: 800 })
    await page.screenshot({ path: `test-results/screens/signed-in-${width}.png` })
  }
  const cookie = (await page.context().cookies()).find((c) => c.name === 'loom_runs_session')
  expect(cookie?.httpOnly).toBe(true)
  expect(cookie?.sameSite).toBe('Strict')
  await page.getByRole('button', { name: 'Log out' }).click()
  await expect(page).toHaveURL(/\/login/)
  // The cookie the browser held is refused now, wherever it is replayed.
  const replay = await fetch(`${base}/api/runs?limit=1`, { headers: { cookie: `loom_runs_session=${cookie!.value}` } })
  expect(replay.status).toBe(401)
})
