import { expect, test, type Page } from '@playwright/test'
import { DEMO_RUNS } from '../lib/demo/scenarios'
import { links } from '../lib/links'
import { gotoHydrated, hydrated } from './hydrated'

/**
 * Server-rendered pages must hydrate without a mismatch: when the HTML and the first client
 * render differ, React throws the server's markup away and renders again, and a click that
 * lands in between is lost. A slow CPU widens that window (the page's part of the tree
 * hydrates after the root), so it is where such a mismatch shows.
 */
async function slowCpu(page: Page) {
  const cdp = await page.context().newCDPSession(page)
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 6 })
}

function pageErrors(page: Page): string[] {
  const errors: string[] = []
  page.on('pageerror', (e) => errors.push(e.message))
  return errors
}

for (const [name, url] of [
  ['runs page', '/'],
  ['run page', links.run(DEMO_RUNS.batch)],
] as const) {
  test(`the ${name} hydrates its server HTML without a mismatch on a slow CPU`, async ({ page }) => {
    const errors = pageErrors(page)
    await slowCpu(page)
    await gotoHydrated(page, url)
    // Write controls come from who the viewer is; the server knows that and renders them.
    await expect(page.getByRole('button', { name: /Clear checkpoints…|Edit/ }).first()).toBeVisible()
    await page.waitForLoadState('networkidle')
    expect(errors).toEqual([])
  })
}

test('the runs page HTML already holds the operator’s batch actions', async ({ request }) => {
  const html = await (await request.get('/')).text()
  expect(html).toContain('aria-label="Batch actions on the filtered runs"')
})

test('a click on Older right after load, on a slow CPU, pages the list', async ({ page }) => {
  await slowCpu(page)
  await gotoHydrated(page, '/')
  const rows = page.getByRole('table', { name: 'Runs' }).locator('tbody tr')
  const first = await rows.first().getAttribute('data-run-id')
  await page.getByRole('button', { name: 'Older →' }).click()
  await expect(page).toHaveURL(/cursor=/)
  await expect(rows.first()).not.toHaveAttribute('data-run-id', first!)
})

test('the runs filters take input before the page’s scripts run: what was typed is kept and applied, and Enter loads the filtered page', async ({
  page,
  request,
}) => {
  const crawl = (await (await request.get('/api/runs?q=crawl&limit=50')).json()) as { runs: { runId: string }[] }
  expect(crawl.runs.length).toBeGreaterThan(0)
  // The page's scripts are held back 2.5 s: the server's form is all there is meanwhile.
  await page.route('**/_next/static/chunks/**', async (route) => {
    await new Promise((r) => setTimeout(r, 2500))
    await route.continue().catch(() => undefined)
  })
  await page.goto('/', { waitUntil: 'commit' })
  const search = page.getByRole('searchbox', { name: 'Search goal or run id' })
  await search.fill('crawl')
  expect(await page.evaluate(() => document.documentElement.dataset.hydrated ?? null)).toBeNull()
  await hydrated(page)
  // Kept through hydration, then applied in place.
  await expect(search).toHaveValue('crawl')
  await expect(page).toHaveURL(/[?&]q=crawl/)
  await expect(page.getByRole('table', { name: 'Runs' }).locator('tbody tr')).toHaveCount(crawl.runs.length)

  // Enter before the scripts: a plain GET of the filtered page, rendered by the server.
  await page.goto('/', { waitUntil: 'commit' })
  await expect(page.getByRole('button', { name: 'Apply filters' })).toBeVisible()
  await search.fill('crawl')
  await search.press('Enter')
  await page.waitForURL(/[?&]q=crawl/)
  await expect(page.getByRole('table', { name: 'Runs' }).locator('tbody tr')).toHaveCount(crawl.runs.length)
  await hydrated(page)
  // Once the scripts run, filters apply as they change: no Apply button.
  await expect(page.getByRole('button', { name: 'Apply filters' })).toHaveCount(0)
})
