import path from 'node:path'
import { expect, test, type Page, type Response } from '@playwright/test'
import { links } from '../lib/links'
import { stop } from './processes'
import { RemoteStack } from './remote-stack'

/*
 * ClickHouse goes away in the middle of a session and comes back, with real parts only: the
 * built app in REMOTE mode (its own `next start`, beside the suite's embedded-mode server),
 * talking over HTTP to tests/helpers/clickhouse-http-peer.ts, which is stopped with SIGTERM and
 * started again on the same port and data directory. No request is mocked or rerouted.
 */

const ROOT = path.resolve(__dirname, '..')
const SCREENS = path.join(ROOT, 'test-results', 'screens')

const RUN = { org: 'outage', namespace: 'e2e', agent: 'outage-agent', runId: 'run-outage-1' } as const
const GOAL = 'Reconcile the November invoices'
const CHECKPOINTS = ['step 1: fetched 40 invoices', 'step 2: reconciled 38 of 40 invoices'] as const
const MEMORY_KEY = 'billing.region'
/** The banner text for a 503 (components/ui/error-banner.tsx) with lib/clickhouse/query.ts's network message. */
const UNAVAILABLE = 'ClickHouse is unavailable: ClickHouse is unreachable'
const STALE = 'Showing the last data received.'

// --- The peer, the seed and the app ------------------------------------------------------------

let stack: RemoteStack
let app = ''

test.describe.configure({ mode: 'serial' })

test.beforeAll(async () => {
  test.setTimeout(300_000)
  stack = new RemoteStack('outage', 'outage-peer-secret', { CLICKHOUSE_REQUEST_TIMEOUT_MS: '3000' })
  app = stack.app
  await stack.startPeer()
  const spec = { ...RUN, goal: GOAL, checkpoints: CHECKPOINTS, memoryKey: MEMORY_KEY }
  await stack.runScript('seed', 'scripts/e2e-outage-seed.ts', [JSON.stringify(spec)])
  const mode = await stack.startApp()
  if (mode !== 'remote')
    throw new Error(`the second server runs in ${String(mode)} mode, not remote:\n${stack.server?.log()}`)
})

test.afterAll(async () => {
  test.setTimeout(90_000)
  await stack?.stopAll()
})

test.afterEach(async ({}, testInfo) => {
  await stack?.attachLogs(testInfo)
})

// --- The test ----------------------------------------------------------------------------------

const isCall = (apiPath: string) => (r: Response) =>
  new URL(r.url()).pathname === apiPath && r.request().method() === 'GET'

/** Clicks, and returns the status of the first answer to `apiPath` the click causes. */
async function statusAfter(page: Page, apiPath: string, click: () => Promise<void>) {
  const answer = page.waitForResponse(isCall(apiPath), { timeout: 30_000 })
  await click()
  return (await answer).status()
}

test('ClickHouse stops mid-session: error banners with Retry, what was shown is kept; once it is back, Retry shows the data', async ({
  page,
  request,
}) => {
  test.setTimeout(240_000)
  const summary = page.getByRole('region', { name: 'Run summary' })
  const explainer = page.getByRole('region', { name: 'Resume explainer' })
  const panel = page.getByRole('tabpanel')
  const tab = (name: RegExp) => page.getByRole('tab', { name })
  // Error banners only: Next's route announcer is role=alert too.
  const banners = page.getByRole('alert').filter({ hasText: 'Could not load.' })
  const panelBanners = panel.getByRole('alert').filter({ hasText: 'Could not load.' })
  const written = page.getByRole('table', { name: 'Memories written by this run' })

  /** The header and the tabs are still on screen, with the run's values. */
  const expectRunKept = async () => {
    await expect(summary.getByRole('heading', { name: GOAL })).toBeVisible()
    await expect(summary.getByText('succeeded', { exact: true })).toBeVisible()
    await expect(summary).toContainText(`run_id: ${RUN.runId}`)
    await expect(tab(/^Memories/)).toHaveText(/^Memories\s*1$/)
    await expect(tab(/^Blocks/)).toHaveText(/^Blocks\s*1$/)
    // Nothing is left loading: each place shows data or an error.
    await expect(page.locator('[aria-busy="true"]')).toHaveCount(0)
  }

  await test.step('before the outage: the run page shows the run and its checkpoint', async () => {
    await page.goto(`${app}${links.run(RUN)}`)
    await expect(summary.getByRole('heading', { name: GOAL })).toBeVisible()
    await expect(tab(/^Checkpoint/)).toHaveAttribute('aria-selected', 'true')
    await expect(explainer).toContainText(`returns v2`)
    await expect(explainer).toContainText(CHECKPOINTS[1])
    await expect(page.getByRole('region', { name: 'Versions', exact: true }).getByText('2 versions')).toBeVisible()
    await expectRunKept()
    await expect(banners).toHaveCount(0)
  })

  await test.step('ClickHouse stops: the API answers 503 unavailable', async () => {
    expect(await stop(stack.peer), 'the peer exits cleanly on SIGTERM').toEqual({ code: 0, signal: null })
    for (const apiPath of [links.api.run(RUN), links.api.memories(RUN)]) {
      const res = await request.get(`${app}${apiPath}`)
      expect(res.status(), apiPath).toBe(503)
      expect((await res.json()).error, apiPath).toEqual({ code: 'unavailable', message: 'ClickHouse is unreachable' })
    }
  })

  await test.step('a tab not loaded yet shows an error banner with Retry; the run stays on screen', async () => {
    expect(await statusAfter(page, links.api.memories(RUN), () => tab(/^Memories/).click())).toBe(503)
    await expect(tab(/^Memories/)).toHaveAttribute('aria-selected', 'true')
    // The client retries twice (app/providers.tsx) before it shows the error.
    await expect(panelBanners).toHaveCount(1, { timeout: 30_000 })
    await expect(panelBanners).toContainText(`Could not load. ${UNAVAILABLE}`)
    await expect(panelBanners).not.toContainText(STALE) // nothing of this tab was shown before
    await expect(panelBanners.getByRole('button', { name: 'Retry' })).toBeVisible()
    await expect(banners).toHaveCount(1) // the run itself was not asked for again
    await expectRunKept()
    await expect(written).toHaveCount(0)

    // Retry while ClickHouse is still down: asked again, refused again, the same banner.
    expect(
      await statusAfter(page, links.api.memories(RUN), () =>
        panelBanners.getByRole('button', { name: 'Retry' }).click(),
      ),
    ).toBe(503)
    await expect(panelBanners).toContainText(UNAVAILABLE)
    await expectRunKept()
    await page.evaluate(() => window.scrollTo(0, 0))
    await page.screenshot({ path: path.join(SCREENS, 'outage.png'), fullPage: true })
  })

  await test.step('back on the checkpoint tab: its content is kept, marked as the last data received', async () => {
    // The tab's queries are older than their 5 s staleTime, so mounting it asks ClickHouse again.
    await tab(/^Checkpoint/).click()
    await expect(explainer).toContainText(CHECKPOINTS[1])
    // One banner above the run summary (the run) and one in the tab (the checkpoint), both stale.
    await expect(banners.filter({ hasText: STALE })).toHaveCount(2, { timeout: 30_000 })
    await expect(panelBanners).toHaveCount(1)
    for (const banner of await banners.all()) {
      await expect(banner).toContainText(UNAVAILABLE)
      await expect(banner.getByRole('button', { name: 'Retry' })).toBeVisible()
    }
    await expect(explainer).toContainText(CHECKPOINTS[1])
    await expect(explainer).toContainText('returns v2')
    await expect(page.getByRole('region', { name: 'Versions', exact: true }).getByText('2 versions')).toBeVisible()
    await expectRunKept()
    await page.evaluate(() => window.scrollTo(0, 0))
    await page.screenshot({ path: path.join(SCREENS, 'outage-stale.png'), fullPage: true })
  })

  await test.step('the memories tab again, still during the outage: asked again on the way in, the banner again', async () => {
    await tab(/^Memories/).click()
    await expect(panelBanners).toHaveCount(1, { timeout: 30_000 })
    await expect(panelBanners).toContainText(UNAVAILABLE)
    await expect(banners).toHaveCount(2) // and the run's stale banner above the summary
    await expectRunKept()
  })

  await test.step('ClickHouse is back on the same port and data: the API answers 200', async () => {
    await stack.startPeer()
    const run = await request.get(`${app}${links.api.run(RUN)}`)
    expect(run.status()).toBe(200)
    expect((await run.json()).run).toMatchObject({ ...RUN, goal: GOAL, status: 'succeeded' })
    const memories = await request.get(`${app}${links.api.memories(RUN)}`)
    expect(memories.status()).toBe(200)
    expect((await memories.json()).written.map((m: { memoryKey: string }) => m.memoryKey)).toEqual([MEMORY_KEY])
  })

  await test.step('Retry shows the tab’s data and its banner goes away; the run’s banner clears by itself', async () => {
    expect(
      await statusAfter(page, links.api.memories(RUN), () =>
        panelBanners.getByRole('button', { name: 'Retry' }).click(),
      ),
    ).toBe(200)
    await expect(written.locator(`tr[data-memory-key="${MEMORY_KEY}"]`)).toContainText('v1')
    await expect(written.locator(`tr[data-memory-key="${MEMORY_KEY}"]`)).toContainText('live')
    await expect(panelBanners).toHaveCount(0)
    // The run's banner goes without a click: while the run is in error the page asks for it every 10 s.
    await expect(banners).toHaveCount(0, { timeout: 25_000 })
    await expectRunKept()
  })

  await test.step('the next requests answer too: the checkpoint tab refreshes itself, the runs list loads', async () => {
    await tab(/^Checkpoint/).click()
    await expect(explainer).toContainText(CHECKPOINTS[1])
    await expect(banners).toHaveCount(0, { timeout: 30_000 })
    await expectRunKept()
    await page.goto(`${app}/`)
    const row = page.getByRole('table', { name: 'Runs' }).locator(`tr[data-run-id="${RUN.runId}"]`)
    await expect(row).toBeVisible()
    await expect(row).toContainText('succeeded')
    await expect(banners).toHaveCount(0)
  })
})
