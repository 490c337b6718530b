import { expect, test } from '@playwright/test'
import { DEMO_RUNS, type DemoRun } from '../lib/demo/scenarios'
import { links } from '../lib/links'
import { PAGES, RICH_RUN, openSettled } from './page-list'
import { SCREENS, screensAtWidths } from './screens'

const PHONE = { width: 390, height: 844 }

test.use({ viewport: PHONE })

/** How far the page scrolls sideways: the document's width, which must stay within the screen. */
const pageWidth = (page: import('@playwright/test').Page) => page.evaluate(() => document.scrollingElement!.scrollWidth)

for (const { name, path } of PAGES) {
  test(`${name}: no sideways scrolling at 390 px`, async ({ page }) => {
    await openSettled(page, path)
    expect(await pageWidth(page)).toBeLessThanOrEqual(PHONE.width)
    await screensAtWidths(page, `phone-${name}`, { fullPage: true })
  })
}

test('run page: the tabs start within the first screen, and every tab is in view (the strip wraps)', async ({
  page,
}) => {
  await openSettled(page, links.run(RICH_RUN, { tab: 'checkpoint' }))
  const tablist = page.getByRole('tablist', { name: 'Run views' })
  const first = await tablist.getByRole('tab').first().boundingBox()
  expect(first!.y + first!.height).toBeLessThanOrEqual(PHONE.height)
  // No tab hides past the edge: each one is whole on the screen, its name not cut.
  const tabs = tablist.getByRole('tab')
  expect(await tabs.count()).toBeGreaterThanOrEqual(6)
  for (const tab of await tabs.all()) {
    const b = await tab.boundingBox()
    expect(b!.x).toBeGreaterThanOrEqual(0)
    expect(b!.x + b!.width).toBeLessThanOrEqual(PHONE.width)
    expect(await tab.evaluate((el) => el.scrollWidth <= el.clientWidth + 1)).toBe(true)
  }
  expect(await tablist.evaluate((el) => el.scrollWidth <= el.clientWidth + 1)).toBe(true)
  await page.getByRole('tab', { name: /Audit/ }).click()
  await expect(page).toHaveURL(/tab=audit/)
  expect(await pageWidth(page)).toBeLessThanOrEqual(PHONE.width)
})

test('timeline at 390 px: labels wrap instead of being cut off, and each row names its user and session', async ({
  page,
}) => {
  await openSettled(page, links.run(DEMO_RUNS.nearMiss, { tab: 'timeline' }))
  const rows = page.getByRole('listbox', { name: /Timeline events/ }).getByRole('option')
  await expect(rows.first()).toBeVisible()
  // The resume tag of the second process, whole: it says which session's checkpoint the resume missed.
  const tag = page.getByText(/^resume · /).first()
  await expect(tag).toBeVisible()
  for (const label of await page.getByTestId('timeline-label').all()) {
    expect(await label.evaluate((el) => el.scrollWidth <= el.clientWidth + 1)).toBe(true)
  }
  // Two sessions wrote this run: "checkpoint v1" appears once per session, told apart by the identity line.
  // The first rows are the first session's; the last ones (End in the list) the second's.
  await expect(page.getByTestId('timeline-identity').first()).toHaveText('u-7/s1')
  await page.getByRole('listbox', { name: /Timeline events/ }).focus()
  await page.keyboard.press('End')
  await expect(page.getByTestId('timeline-identity').filter({ hasText: 'u-7/s2' }).first()).toBeVisible()
  expect(await pageWidth(page)).toBeLessThanOrEqual(PHONE.width)
  await page.getByRole('listbox', { name: /Timeline events/ }).scrollIntoViewIfNeeded()
  await page.screenshot({ path: `${SCREENS}/phone-timeline-390-light.png` })
  await page.evaluate(() => (document.documentElement.dataset.theme = 'dark'))
  await page.screenshot({ path: `${SCREENS}/phone-timeline-390-dark.png` })
})

test('every demo run: the tabs start within the first screen and nothing scrolls sideways', async ({ page }) => {
  const runs = Object.values(DEMO_RUNS).filter((r): r is DemoRun => !Array.isArray(r))
  for (const run of runs) {
    await page.goto(links.run(run, { tab: 'audit' }))
    const tablist = page.getByRole('tablist', { name: 'Run views' })
    await expect(tablist).toBeVisible()
    // The header may be drawn again as the page's data streams in: measure until it holds.
    await expect
      .poll(
        async () => {
          const box = await tablist.getByRole('tab').first().boundingBox()
          return box ? box.y + box.height : Infinity
        },
        { message: run.runId },
      )
      .toBeLessThanOrEqual(PHONE.height)
    expect(await pageWidth(page), run.runId).toBeLessThanOrEqual(PHONE.width)
  }
})

test('runs page: each run is a card that names every value, with nothing in a sideways scroll', async ({ page }) => {
  await openSettled(page, links.runs())
  const wrap = page.locator('.table-wrap').first()
  await expect(wrap).toBeVisible()
  const box = await wrap.boundingBox()
  expect(box!.x + box!.width).toBeLessThanOrEqual(PHONE.width)
  expect(await pageWidth(page)).toBeLessThanOrEqual(PHONE.width)
  // Nothing of the list is out of sight to the side.
  expect(await wrap.evaluate((el) => el.scrollWidth - el.clientWidth)).toBeLessThanOrEqual(1)
  // Still a table to assistive technology: rows of cells under their column headers.
  const table = page.getByRole('table', { name: 'Runs' })
  const first = table.getByRole('row').nth(1)
  await expect(first.getByRole('cell')).toHaveCount(9)
  // Every value sits under its column's name, and every cell is inside the screen.
  for (const label of ['Status', 'Agent', 'Attempts', 'Started', 'Duration', 'Turns', 'Cost', 'Checkpoint']) {
    const cell = first.locator(`td[data-label="${label}"]`)
    const shown = await cell.evaluate((el) => getComputedStyle(el, '::before').content)
    expect(shown, label).toBe(`"${label}"`)
    const b = await cell.boundingBox()
    expect(b!.x + b!.width, label).toBeLessThanOrEqual(PHONE.width)
  }
  // The goal wraps instead of being cut off with an ellipsis.
  const goal = first.locator('.goal')
  expect(await goal.evaluate((el) => el.scrollWidth <= el.clientWidth + 1)).toBe(true)
  await wrap.evaluate((el) => el.scrollIntoView())
  await page.screenshot({ path: `${SCREENS}/phone-runs-cards-390-light.png` })
  await page.evaluate(() => (document.documentElement.dataset.theme = 'dark'))
  await page.screenshot({ path: `${SCREENS}/phone-runs-cards-390-dark.png` })
})
