import type { Locator, Page } from '@playwright/test'

/**
 * Waits until React has hydrated the server's HTML. Pages arrive rendered, so a click or key
 * sent before this lands on markup without handlers and does nothing.
 *
 * The marker on <html> is set once the root has hydrated; a page's streamed parts (Suspense
 * boundaries) may hydrate later. With `target`, also waits until React has taken over that
 * element (it then carries React's own fiber reference) and a frame has passed, so the effects
 * that attach keyboard listeners for it have run.
 */
export async function hydrated(page: Page, target?: Locator) {
  await page.locator('html[data-hydrated="true"]').waitFor({ state: 'attached' })
  if (!target) return
  await target.first().waitFor({ state: 'attached' })
  await page.waitForFunction(
    (el) => !!el && Object.keys(el).some((k) => k.startsWith('__reactFiber$')),
    await target.first().elementHandle(),
  )
  await page.evaluate(() => new Promise<void>((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0))))
}

/** Opens `url` and waits until React has hydrated it: the first step of most tests that click or type. */
export async function gotoHydrated(page: Page, url: string) {
  await page.goto(url)
  await hydrated(page)
}
