import type { Page } from '@playwright/test'

/**
 * Waits until React has hydrated the server's HTML. Pages arrive rendered, so a click or key
 * sent before this lands on markup without handlers and does nothing.
 */
export async function hydrated(page: Page) {
  await page.locator('html[data-hydrated="true"]').waitFor({ state: 'attached' })
}
