import AxeBuilder from '@axe-core/playwright'
import { expect, test, type Page } from '@playwright/test'
import { PAGES, openSettled } from './page-list'

/**
 * Automated accessibility checks (axe, WCAG 2.1 A and AA rules) on every page and every run tab,
 * in the light and the dark theme: no serious or critical violation. Each page is loaded once and
 * checked in both themes (the dark theme is the same style sheet under `data-theme="dark"`, which
 * the page sets from the system's colour scheme; the last test checks that it does).
 */
// axe checks every node's contrast: a page with a long table takes a while.
test.describe.configure({ timeout: 120_000 })

async function seriousViolations(page: Page) {
  const result = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze()
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => ({
      rule: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.slice(0, 5).map((n) => `${n.target.join(' ')}: ${n.failureSummary}`),
    }))
}

test.describe('light and dark mode', () => {
  // A fresh context has no saved theme, so the page follows the system's colour scheme: light here.
  test.use({ colorScheme: 'light' })

  for (const { name, path } of PAGES) {
    test(`${name} has no serious or critical axe violations in either theme`, async ({ page }) => {
      await openSettled(page, path)
      await expect(page.locator('html')).toHaveAttribute('data-theme', 'light')
      const light = await seriousViolations(page)
      expect(light, `light: ${JSON.stringify(light, null, 2)}`).toEqual([])
      await page.evaluate(() => document.documentElement.setAttribute('data-theme', 'dark'))
      await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark')
      // What draws per theme (the resume diagram) shows a placeholder while it redraws.
      await expect(page.locator('[aria-busy="true"], .skeleton')).toHaveCount(0)
      const dark = await seriousViolations(page)
      expect(dark, `dark: ${JSON.stringify(dark, null, 2)}`).toEqual([])
    })
  }
})

test.describe('the system colour scheme', () => {
  test.use({ colorScheme: 'dark' })
  test('a dark system scheme opens the dark theme', async ({ page }) => {
    await openSettled(page, PAGES[0].path)
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark')
  })
})
