import AxeBuilder from '@axe-core/playwright'
import { expect, test } from '@playwright/test'
import { PAGES, openSettled } from './page-list'

/**
 * Automated accessibility checks (axe, WCAG 2.1 A and AA rules) on every page and every run tab,
 * in the light and the dark theme: no serious or critical violation.
 */
// axe checks every node's contrast: a page with a long table takes a while.
test.describe.configure({ timeout: 120_000 })

for (const colorScheme of ['light', 'dark'] as const) {
  test.describe(`${colorScheme} mode`, () => {
    // A fresh context has no saved theme, so the page follows the system's colour scheme.
    test.use({ colorScheme })

    for (const { name, path } of PAGES) {
      test(`${name} has no serious or critical axe violations`, async ({ page }) => {
        await openSettled(page, path)
        await expect(page.locator('html')).toHaveAttribute('data-theme', colorScheme)
        const result = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze()
        const bad = result.violations
          .filter((v) => v.impact === 'serious' || v.impact === 'critical')
          .map((v) => ({ rule: v.id, impact: v.impact, help: v.help, nodes: v.nodes.slice(0, 5).map((n) => `${n.target.join(' ')}: ${n.failureSummary}`) }))
        expect(bad, JSON.stringify(bad, null, 2)).toEqual([])
      })
    }
  })
}
