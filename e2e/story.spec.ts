import { expect, test, type Page } from '@playwright/test'
import { gotoHydrated, hydrated } from './hydrated'
import { DEMO_RUNS } from '../lib/demo/scenarios'
import { links } from '../lib/links'
import { BIG_RUN } from './fixtures'
import type { RunRef } from '../lib/loom/identity'

function tabUrl(run: RunRef, tab: string, extra: Record<string, string> = {}) {
  return links.run(run, { tab, ...extra })
}

async function screens(page: Page, name: string) {
  for (const theme of ['light', 'dark'] as const) {
    await page.evaluate((t) => {
      document.documentElement.dataset.theme = t
    }, theme)
    await page.screenshot({ path: `test-results/screens/story-${name}-${theme}.png`, fullPage: true })
  }
  await page.evaluate(() => {
    document.documentElement.dataset.theme = 'light'
  })
}

const eventParam = (page: Page) => new URL(page.url()).searchParams.get('event')

test.describe('timeline', () => {
  test('swimlanes, resume marker and a virtualized list for the resumed batch run', async ({ page }) => {
    await page.goto(tabUrl(DEMO_RUNS.batch, 'timeline'))
    await hydrated(page, page.getByRole('listbox', { name: /Timeline events/ }))
    const chart = page.getByRole('figure', { name: /Swimlane chart/ })
    await expect(chart.getByTestId('timeline-mark').first()).toBeVisible()
    expect(await chart.getByTestId('timeline-mark').count()).toBeGreaterThan(100)
    await expect(chart.getByTestId('timeline-resume-line')).toHaveCount(1)
    await expect(chart.getByText(/resume · attempt 2 from v120/)).toBeVisible()
    // The crash left a ~10 minute hole: compressed, with a labelled marker.
    await expect(chart.getByText(/^no events for \d+m/)).toBeVisible()

    const list = page.getByRole('listbox', { name: /Timeline events/ })
    const options = list.getByRole('option')
    await expect(options.first()).toBeVisible()
    const setSize = Number(await options.first().getAttribute('aria-setsize'))
    expect(setSize).toBeGreaterThan(300)
    expect(await options.count()).toBeLessThan(60)

    // Zoom: buttons, and dragging across empty chart space.
    const before = await chart.getByTestId('timeline-mark').count()
    await page.getByRole('button', { name: 'Zoom in' }).click()
    await expect(page.getByRole('button', { name: 'Reset zoom' })).toBeEnabled()
    await expect.poll(() => chart.getByTestId('timeline-mark').count()).toBeLessThan(before)
    await page.getByRole('button', { name: 'Reset zoom' }).click()
    await expect(page.getByRole('button', { name: 'Reset zoom' })).toBeDisabled()
    const plot = await chart.getByTestId('timeline-drag-area').boundingBox()
    if (!plot) throw new Error('no plot area')
    await page.mouse.move(plot.x + plot.width * 0.1, plot.y + 4)
    await page.mouse.down()
    await page.mouse.move(plot.x + plot.width * 0.25, plot.y + 4, { steps: 5 })
    await page.mouse.up()
    await expect(page.getByRole('button', { name: 'Reset zoom' })).toBeEnabled()
    await expect.poll(() => chart.getByTestId('timeline-mark').count()).toBeLessThan(before)
    await page.getByRole('button', { name: 'Reset zoom' }).click()

    await page.getByRole('checkbox', { name: /Compress idle gaps/ }).uncheck()
    await expect(chart.getByText(/^no events for \d+m/)).toHaveCount(0)
    await page.getByRole('checkbox', { name: /Compress idle gaps/ }).check()
    await screens(page, 'timeline')
  })

  test('J and K move the selection, the URL follows, a click opens the payload', async ({ page }) => {
    await page.goto(tabUrl(DEMO_RUNS.batch, 'timeline'))
    await hydrated(page, page.getByRole('listbox', { name: /Timeline events/ }))
    const list = page.getByRole('listbox', { name: /Timeline events/ })
    await expect(list.getByRole('option').first()).toBeVisible()

    await page.keyboard.press('j')
    await expect.poll(() => eventParam(page)).toBe('begin-1')
    await page.keyboard.press('j')
    await page.keyboard.press('j')
    await expect.poll(() => eventParam(page)).toBe('checkpoint-1')
    await expect(list.getByRole('option', { selected: true })).toHaveAttribute('data-event-id', 'checkpoint-1')
    await page.keyboard.press('k')
    await expect.poll(() => eventParam(page)).toBe('checkpoint-0')

    const panel = page.getByRole('complementary', { name: /checkpoint v1 by batch-indexer/ })
    await expect(panel).toBeVisible()
    await expect(panel.getByLabel('Event detail')).toHaveText('item-001')

    await list.getByRole('option').nth(5).click()
    const clicked = await list.getByRole('option', { selected: true }).getAttribute('data-event-id')
    expect(clicked).toBe(eventParam(page))
    await expect(page.getByRole('complementary')).toContainText('host-a/pid-4242')

    // A chart mark selects its event too.
    await page
      .getByRole('figure', { name: /Swimlane chart/ })
      .locator('[data-testid="timeline-mark"][data-kind="run.complete"]')
      .click()
    await expect.poll(() => eventParam(page)).toBe('complete')
    await expect(page.getByRole('complementary', { name: /run.complete: succeeded/ })).toBeVisible()
    await screens(page, 'timeline-selected')
  })

  test('a deep link scrolls to its event; the first write after the resume is tagged', async ({ page }) => {
    await page.goto(tabUrl(DEMO_RUNS.batch, 'timeline', { event: 'checkpoint-120' }))
    await hydrated(page, page.getByRole('listbox', { name: /Timeline events/ }))
    const row = page.getByRole('option', { selected: true })
    await expect(row).toBeVisible()
    await expect(row).toHaveAttribute('data-event-id', 'checkpoint-120')
    await expect(row.getByText('resume · from v120')).toBeVisible()
    await expect(page.getByRole('complementary', { name: /checkpoint v121/ })).toBeVisible()
    await page.keyboard.press('k')
    await expect.poll(() => eventParam(page)).toBe('begin-2')
  })

  test('kind filters narrow the list and the chart', async ({ page }) => {
    await page.goto(tabUrl(DEMO_RUNS.batch, 'timeline'))
    await hydrated(page, page.getByRole('listbox', { name: /Timeline events/ }))
    const chips = page.getByRole('group', { name: 'Filter events by kind' })
    await chips.getByRole('button', { name: /^checkpoint\s*300$/ }).click()
    await expect(chips.getByRole('button', { name: /^checkpoint\s*300$/ })).toHaveAttribute('aria-pressed', 'false')
    await expect(page.getByRole('status').filter({ hasText: /4 of 304 events shown/ })).toBeVisible()
    await expect(page.getByRole('listbox', { name: /Timeline events/ }).getByRole('option')).toHaveCount(4)
    expect(new URL(page.url()).searchParams.get('kinds')).toBe('run.begin,checkpoint.cleared,run.complete')
  })

  test('a run with 12,345 events: capped at 10,000, virtualized, the full export offered', async ({ page }) => {
    const run = BIG_RUN
    await page.goto(tabUrl(run, 'timeline'))
    await hydrated(page, page.getByRole('listbox', { name: /Timeline events/ }))
    await expect(page.getByText('Showing the first 10,000 of 12,347 events')).toBeVisible()
    await expect(page.getByRole('link', { name: 'Download all as JSON' })).toHaveAttribute(
      'href',
      links.api.export(run),
    )
    const list = page.getByRole('listbox', { name: /Timeline events/ })
    await expect(list.getByRole('option').first()).toBeVisible()
    expect(await list.getByRole('option').count()).toBeLessThan(60)
    expect(await page.getByTestId('timeline-mark').count()).toBeLessThanOrEqual(700)
    // The chart groups its marks so the whole tab stays under 3,000 elements.
    expect(await page.evaluate(() => document.getElementsByTagName('*').length)).toBeLessThan(3_000)
    await list.focus()
    await page.keyboard.press('End')
    await expect.poll(() => eventParam(page)).not.toBeNull()
    await expect(list.getByRole('option', { selected: true })).toBeVisible()
    expect(await list.getByRole('option').count()).toBeLessThan(60)
    await screens(page, 'timeline-10k')
  })
})

test('a request the server refuses shows an error banner with retry, not a blank page', async ({ page }) => {
  // A run id over the 1,024-character limit: the real API answers 400 naming the field.
  await gotoHydrated(page, links.run({ ...DEMO_RUNS.batch, runId: 'r'.repeat(1100) }))
  const alert = page.getByRole('alert').filter({ hasText: /runId/ })
  await expect(alert).toBeVisible()
  await alert.getByRole('button', { name: 'Retry' }).click()
  await expect(page.getByRole('alert').filter({ hasText: /runId/ })).toBeVisible()
})

test('a page whose scripts fail to load says so, with a reload link; a page that hydrates shows nothing of it', async ({
  page,
}) => {
  await gotoHydrated(page, '/')
  await expect(page.locator('.scripts-failed')).toBeHidden()

  await page.route('**/_next/static/chunks/**', (route) => route.abort())
  await page.goto('/')
  const banner = page.getByRole('alert').filter({ hasText: "This page's scripts did not load" })
  await expect(banner).toBeVisible()
  const reload = banner.getByRole('link', { name: 'Reload the page' })
  await expect(reload).toHaveAttribute('href', '')
  // The scripts are back: following the link reloads the page, which hydrates and hides the banner.
  await page.unroute('**/_next/static/chunks/**')
  await reload.click()
  await hydrated(page)
  await expect(page.locator('.scripts-failed')).toBeHidden()
})

test('conversation: turns in order, role-styled, searchable', async ({ page }) => {
  await gotoHydrated(page, tabUrl(DEMO_RUNS.researchReader, 'conversation'))
  const turns = page.locator('li[data-turn-index]')
  await expect(turns).toHaveCount(5)
  expect(await turns.evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-turn-index'))))).toEqual([
    0, 1, 2, 3, 4,
  ])
  expect(await turns.evaluateAll((els) => els.map((e) => e.getAttribute('data-role')))).toEqual([
    'system',
    'user',
    'tool',
    'tool',
    'assistant',
  ])
  await expect(turns.nth(2).getByText('memory.search')).toBeVisible()
  await expect(turns.nth(4).getByText('3,400 in · 620 out')).toBeVisible()
  await screens(page, 'conversation')

  await page.getByRole('searchbox', { name: 'Search turns' }).fill('northwind')
  await expect(page.getByRole('status').filter({ hasText: /3 of 5 turns contain “northwind”/ })).toBeVisible()
  await expect(turns).toHaveCount(3)
  for (const t of await turns.all()) await expect(t.locator('mark').first()).toBeVisible()
  await expect(turns.last().locator('mark')).toHaveText(['Northwind'])
  await screens(page, 'conversation-search')
})

test('memories: written and relied-on, the writer run linked, a memory highlighted from the URL', async ({ page }) => {
  const reader = DEMO_RUNS.researchReader
  const writer = DEMO_RUNS.researchWriter
  await gotoHydrated(page, tabUrl(reader, 'memories', { memory: 'procurement.q3.budget-cap' }))
  const written = page.getByRole('table', { name: 'Memories written by this run' })
  await expect(written.getByRole('row')).toHaveCount(3)
  const relied = page.getByRole('table', { name: 'Memories this run relied on' })
  await expect(relied.getByText('used', { exact: true })).toHaveCount(3)
  await expect(relied.getByText('recalled', { exact: true })).toHaveCount(4)
  const target = relied.locator('tr[aria-current="true"]')
  await expect(target).toHaveAttribute('data-memory-key', 'procurement.q3.budget-cap')
  const writerLink = target.getByRole('link', { name: `Writer run ${writer.runId} (${writer.agent})` })
  await expect(writerLink).toHaveAttribute(
    'href',
    links.run(writer, { tab: 'memories', memory: 'procurement.q3.budget-cap' }),
  )
  await expect(relied.locator('tr[data-memory-key="vendor.contoso.tier-2.price"]').getByText('this run')).toBeVisible()
  await screens(page, 'memories')
})

test('searches: each search with ranked, scored hits; used hits and writers marked', async ({ page }) => {
  const reader = DEMO_RUNS.researchReader
  await gotoHydrated(page, tabUrl(reader, 'searches'))
  const cards = page.locator('article[data-search-id]')
  await expect(cards).toHaveCount(2)
  const first = cards.first()
  await expect(first.getByRole('heading', { name: /tier-2 price per seat/ })).toBeVisible()
  await expect(first.getByText('hybrid')).toBeVisible()
  const hits = first.getByRole('table', { name: 'Ranked hits' })
  await expect(hits.getByRole('row')).toHaveCount(5)
  await expect(hits.getByRole('row').nth(1)).toContainText('vendor.northwind.tier-2.price')
  await expect(hits.getByRole('row').nth(1)).toContainText('0.912')
  await expect(hits.getByText('used', { exact: true })).toHaveCount(3)
  await expect(
    hits.getByRole('link', { name: `Writer run ${DEMO_RUNS.researchWriter.runId} (research-assistant)` }).first(),
  ).toBeVisible()
  await expect(first.getByRole('img', { name: /Scores of 4 hits/ }).locator('.recharts-bar-rectangle')).toHaveCount(4)
  await screens(page, 'searches')

  await gotoHydrated(page, tabUrl(DEMO_RUNS.blob, 'searches'))
  await expect(page.getByText('The search trace log has no rows for this run')).toBeVisible()
  await expect(page.getByText('LOOM_SEARCH_TRACE_LOG_ENABLED=true')).toBeVisible()
})

test('blobs: offloads with the versions that point at them; a missing blob warned about', async ({ page }) => {
  await gotoHydrated(page, tabUrl(DEMO_RUNS.blob, 'blobs'))
  const table = page.getByRole('table', { name: 'Context blobs' })
  await expect(table.getByRole('row')).toHaveCount(3)
  await expect(table.getByRole('link', { name: 'v1–v4' })).toBeVisible()
  await screens(page, 'blobs')

  await gotoHydrated(page, tabUrl(DEMO_RUNS.expiredBlob, 'blobs'))
  const warning = page.getByRole('note').and(page.locator('[data-blob-key]'))
  await expect(warning).toHaveCount(1)
  await expect(warning).toContainText('Missing blob')
  await expect(warning).toContainText(/expired and was removed, or was never written/)
  await expect(warning.getByRole('link', { name: /^v1–v\d+$/ })).toBeVisible()
  await screens(page, 'blobs-missing')
})
