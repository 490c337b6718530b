import { defineConfig, devices } from '@playwright/test'
import { CHROMIUM_ARGS, TEST_CHROMIUM_PATH } from './scripts/chromium'

// The port is chosen once by scripts/test-all.sh and passed by environment, since
// Playwright loads this file again in every worker.
const port = Number(process.env.E2E_PORT ?? 3210)
const baseURL = `http://127.0.0.1:${port}`
const dataDir = process.env.E2E_DATA_DIR ?? `.data/e2e-${port}`

export default defineConfig({
  testDir: './e2e',
  timeout: 60_000,
  expect: { timeout: 15_000 },
  fullyParallel: false,
  workers: 1,
  retries: process.env.CI ? 1 : 0,
  reporter: [['list']],
  outputDir: 'test-results',
  use: {
    baseURL,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: TEST_CHROMIUM_PATH,
      args: CHROMIUM_ARGS,
    },
  },
  projects: [{ name: 'chromium', use: { ...devices['Desktop Chrome'], viewport: { width: 1400, height: 900 } } }],
  webServer: {
    // A fresh data directory each run: demo data plus a 12,345-event run, then the built server
    // as `npm start` runs it (HOST, PORT and the data directory come from env below).
    command: `npx tsx --conditions=react-server scripts/e2e-prepare.ts ${dataDir} && exec node scripts/start.mjs`,
    url: `${baseURL}/api/health`,
    timeout: 180_000,
    reuseExistingServer: false,
    stdout: 'pipe',
    stderr: 'pipe',
    env: { LOOM_RUNS_DATA_DIR: dataDir, HOST: '127.0.0.1', PORT: String(port), NEXT_TELEMETRY_DISABLED: '1' },
  },
})
