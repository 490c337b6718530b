import type { Page } from '@playwright/test'

/** Where screenshots go (SCREENS_DIR overrides, e.g. to keep them out of a shared test-results). */
export const SCREENS = process.env.SCREENS_DIR ?? 'test-results/screens'

/**
 * Screenshots at the desktop width and at a phone's, light and dark, named
 * `<name>-<width>-<theme>.png`; `ready` runs before each (e.g. wait for a redraw). Leaves the
 * page at 1400 px in light mode.
 */
export async function screensAtWidths(
  page: Page,
  name: string,
  options: { fullPage?: boolean; ready?: () => Promise<void> } = {},
) {
  for (const width of [1400, 390]) {
    await page.setViewportSize({ width, height: 900 })
    for (const theme of ['light', 'dark'] as const) {
      await page.evaluate((t) => {
        document.documentElement.dataset.theme = t
      }, theme)
      await options.ready?.()
      await page.screenshot({ path: `${SCREENS}/${name}-${width}-${theme}.png`, fullPage: options.fullPage ?? false })
    }
  }
  await page.setViewportSize({ width: 1400, height: 900 })
  await page.evaluate(() => {
    document.documentElement.dataset.theme = 'light'
  })
}
