import { expect, test } from '@playwright/test'
import { DEMO_RUNS, type DemoRun } from '../lib/demo/scenarios'
import { links } from '../lib/links'
import { PAGES, RICH_RUN, openSettled } from './page-list'
import { screensAtWidths } from './screens'

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

test('run page: the tabs start within the first screen, and the tab bar shows there are more tabs', async ({ page }) => {
  await openSettled(page, links.run(RICH_RUN, { tab: 'checkpoint' }))
  const tablist = page.getByRole('tablist', { name: 'Run views' })
  const box = await tablist.boundingBox()
  expect(box).not.toBeNull()
  expect(box!.y + box!.height).toBeLessThanOrEqual(PHONE.height)
  // The strip scrolls inside itself and says so at the edge that hides tabs.
  const strip = page.locator('.tabs-strip')
  await expect(strip).toHaveAttribute('data-more', 'end')
  expect(await strip.evaluate((el) => el.scrollWidth > el.clientWidth)).toBe(true)
  // Choosing a tab that was hidden scrolls it into view.
  await page.getByRole('tab', { name: /Audit/ }).click()
  await expect(page).toHaveURL(/tab=audit/)
  await expect(strip).toHaveAttribute('data-more', 'start')
  await expect(page.getByRole('tab', { name: /Audit/ })).toBeInViewport({ ratio: 0.95 })
  expect(await pageWidth(page)).toBeLessThanOrEqual(PHONE.width)
  // A link to a tab far along the strip opens with that tab in view.
  await openSettled(page, links.run(RICH_RUN, { tab: 'blocks' }))
  await expect(page.getByRole('tab', { name: /^Blocks/ })).toBeInViewport({ ratio: 0.95 })
  await expect(strip).toHaveAttribute('data-more', /start|both/)
})

test('every demo run: the tabs start within the first screen and nothing scrolls sideways', async ({ page }) => {
  const runs = Object.values(DEMO_RUNS).filter((r): r is DemoRun => !Array.isArray(r))
  for (const run of runs) {
    await page.goto(links.run(run, { tab: 'audit' }))
    const tablist = page.getByRole('tablist', { name: 'Run views' })
    await expect(tablist).toBeVisible()
    // The header may be drawn again as the page's data streams in: measure until it holds.
    await expect
      .poll(async () => {
        const box = await tablist.boundingBox()
        return box ? box.y + box.height : Infinity
      }, { message: run.runId })
      .toBeLessThanOrEqual(PHONE.height)
    expect(await pageWidth(page), run.runId).toBeLessThanOrEqual(PHONE.width)
  }
})

test('runs page: the table scrolls inside its own box, not the page', async ({ page }) => {
  await openSettled(page, links.runs())
  const wrap = page.locator('.table-wrap').first()
  await expect(wrap).toBeVisible()
  const box = await wrap.boundingBox()
  expect(box!.x + box!.width).toBeLessThanOrEqual(PHONE.width)
  expect(await pageWidth(page)).toBeLessThanOrEqual(PHONE.width)
})
