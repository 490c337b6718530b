import AxeBuilder from '@axe-core/playwright'
import { expect, test, type Page } from '@playwright/test'
import { gotoHydrated } from './hydrated'
import { DEMO_RUNS } from '../lib/demo/scenarios'
import { encodeSegment } from '../lib/links'

const summary = (page: Page) => page.getByRole('region', { name: 'Summary' })

async function openRuns(page: Page, url = '/') {
  await gotoHydrated(page, url)
  await expect(page.getByRole('table', { name: 'Runs' }).locator('tbody tr').first()).toBeVisible()
  await expect(summary(page).getByTestId('summary-grid').and(page.locator('[aria-busy="false"]'))).toBeVisible()
}

test('the runs page shows the summary charts and the top-5 lists, linking to runs', async ({ page }) => {
  await openRuns(page)
  const panel = summary(page)
  for (const name of [
    /Runs per (hour|day) of their start time, stacked by run state/,
    /Runs resumed per day/,
    /Runs by the size of their latest checkpoint/,
  ]) {
    // Each chart is a labelled image inside its figure.
    const figure = panel.getByRole('img', { name })
    await expect(figure.locator('svg.recharts-surface')).toBeVisible()
    await expect(figure.locator('.recharts-bar-rectangle').first()).toBeVisible()
  }
  // The demo holds succeeded, failed, cancelled and running runs.
  const legend = panel.getByRole('list', { name: 'Run counts by state' })
  for (const s of ['succeeded', 'failed', 'cancelled', 'running']) await expect(legend).toContainText(s)

  for (const title of ['Slowest runs', 'Costliest runs']) {
    const links = panel.getByRole('region', { name: title }).getByRole('link')
    await expect(links).toHaveCount(5)
    for (const href of await links.evaluateAll((els) => els.map((e) => e.getAttribute('href'))))
      expect(href).toMatch(/^\/runs\/[^/]+\/[^/]+\/[^/]+\/[^/]+$/)
  }
  // A link opens the run page.
  const first = panel.getByRole('region', { name: 'Slowest runs' }).getByRole('link').first()
  const href = await first.getAttribute('href')
  await first.click()
  await expect(page).toHaveURL(href!)
})

test('filtering by status narrows the charts and the lists', async ({ page }) => {
  await openRuns(page)
  const answered = page.waitForResponse(
    (r) => r.url().includes('/api/runs/analytics') && r.url().includes('status=failed'),
  )
  await page.getByLabel('Status').selectOption('failed')
  expect((await answered).status()).toBe(200)
  const panel = summary(page)
  const legend = panel.getByRole('list', { name: 'Run counts by state' })
  await expect(legend.locator('li')).toHaveCount(1)
  await expect(legend).toContainText('failed')
  const titles = await panel
    .getByRole('region', { name: 'Slowest runs' })
    .getByRole('link')
    .evaluateAll((els) => els.map((e) => e.getAttribute('title')))
  expect(titles.length).toBeGreaterThan(0)
  for (const t of titles) expect(t).toMatch(/\(failed\)$/)
})

test('the summary collapses, and stays collapsed after a reload', async ({ page }) => {
  await openRuns(page)
  const toggle = page.getByRole('button', { name: 'Summary' })
  await expect(toggle).toHaveAttribute('aria-expanded', 'true')
  await toggle.click()
  await expect(toggle).toHaveAttribute('aria-expanded', 'false')
  await expect(summary(page).getByTestId('summary-grid')).toHaveCount(0)
  await page.reload()
  await expect(page.getByRole('button', { name: 'Summary' })).toHaveAttribute('aria-expanded', 'false')
  await page.getByRole('button', { name: 'Summary' }).click()
  await expect(summary(page).locator('svg.recharts-surface').first()).toBeVisible()
})

test('live refresh: a checkpoint written elsewhere flashes its row, without reloading the list every poll', async ({
  page,
  request,
}) => {
  const run = DEMO_RUNS.support
  const api = `/api/runs/${[run.org, run.namespace, run.agent, run.runId].map(encodeSegment).join('/')}`
  let listFetches = 0
  page.on('request', (r) => {
    if (/\/api\/runs\?/.test(r.url())) listFetches++
  })
  const watermark = page.waitForResponse((r) => r.url().includes('/api/runs/changes'))
  await openRuns(page, `/?org=${run.org}&agent=${run.agent}`)
  await watermark
  const row = page.locator(`tr[data-run-id="${run.runId}"]`)
  await expect(row).toBeVisible()
  await expect(row).not.toHaveClass(/row-fresh/)

  // Two quiet polls: no list refetch.
  const before = listFetches
  for (let i = 0; i < 2; i++)
    await page.waitForResponse((r) => r.url().includes('/api/runs/changes?') && r.url().includes('since='))
  expect(listFetches).toBe(before)

  const blocks = await (await request.get(`${api}/blocks`)).json()
  const cp = blocks.blocks.find(
    (b: { blockKey: string; userId: string; sessionId: string }) =>
      b.blockKey === 'checkpoint' && b.userId === run.userId && b.sessionId === run.sessionId,
  )
  const qs = new URLSearchParams({ userId: run.userId, sessionId: run.sessionId })
  const put = await request.put(`${api}/blocks/checkpoint?${qs}`, {
    headers: { 'content-type': 'application/json' },
    data: {
      content: 'step-1 step-2 (edited by the live refresh spec)',
      expectedVersion: cp ? cp.version : '0',
      reason: 'e2e live refresh',
      force: true,
    },
  })
  expect(put.status(), await put.text()).toBe(200)
  const version = (await put.json()).block.version
  await expect(row).toHaveClass(/row-fresh/, { timeout: 15_000 })
  // Held at its flash colour, the row's text and links still have enough contrast (axe).
  await row.evaluate((tr) => tr.querySelectorAll('td').forEach((td) => (td.style.animationPlayState = 'paused')))
  const contrast = await new AxeBuilder({ page })
    .include(`tr[data-run-id="${run.runId}"]`)
    .withRules(['color-contrast'])
    .analyze()
  expect(contrast.violations.flatMap((v) => v.nodes.map((n) => `${n.target.join(' ')}: ${n.failureSummary}`))).toEqual(
    [],
  )
  await expect(row).toContainText(`v${version}`)
  await row.screenshot({ path: 'test-results/screens/runs-analytics-fresh-row.png', animations: 'allow' })
  expect(listFetches).toBeGreaterThan(before)
})

test('polling pauses while a row is hovered, and with the Pause toggle', async ({ page }) => {
  await openRuns(page)
  const status = page.locator('.refresh')
  await expect(status).toHaveAttribute('data-live', 'on')
  await page.getByRole('table', { name: 'Runs' }).locator('tbody tr').first().hover()
  await expect(status).toHaveAttribute('data-live', 'reading')
  await expect(status).toContainText('Paused while you read')
  await page.mouse.move(5, 5)
  await expect(status).toHaveAttribute('data-live', 'on')
  await page.getByRole('button', { name: 'Pause' }).click()
  await expect(status).toHaveAttribute('data-live', 'paused')
  await page.getByRole('button', { name: 'Resume' }).click()
  await expect(status).toHaveAttribute('data-live', 'on')
})

for (const theme of ['light', 'dark'] as const) {
  test(`screenshot of the summary (${theme})`, async ({ page }) => {
    await page.addInitScript((t) => localStorage.setItem('loom-runs-theme', t), theme)
    await openRuns(page)
    await expect(page.locator('html')).toHaveAttribute('data-theme', theme)
    await page.mouse.move(5, 5)
    await page.screenshot({
      path: `test-results/screens/runs-analytics${theme === 'dark' ? '-dark' : ''}.png`,
      fullPage: false,
    })
  })
}
