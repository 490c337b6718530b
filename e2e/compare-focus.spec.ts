import { expect, test } from '@playwright/test'
import { DEMO_RUNS } from '../lib/demo/scenarios'
import { links } from '../lib/links'

test('Compare vA → vB brings the diff into view and moves focus to it (mouse and keyboard)', async ({ page }) => {
  await page.goto(links.run(DEMO_RUNS.operatorEdited))
  const explainer = page.getByRole('region', { name: 'Resume explainer' })
  const diff = page.getByRole('region', { name: 'Compare versions' })
  await expect(diff).toBeAttached()
  await expect(diff).not.toBeInViewport()

  await explainer.getByRole('button', { name: 'Compare v11 → v12' }).click()
  await expect(diff).toBeFocused()
  await expect(diff).toBeInViewport()
  await expect(diff.getByText(/v11 → v12: /)).toBeInViewport()
  // Tab goes on into the diff's own controls.
  await page.keyboard.press('Tab')
  await expect(diff.getByLabel('Version A (before)')).toBeFocused()

  // From the keyboard: back to the top, Enter on another point's button.
  await page.evaluate(() => window.scrollTo(0, 0))
  await expect(diff).not.toBeInViewport()
  const buttons = explainer.getByRole('button', { name: /^Compare v\d+ → v\d+$/ })
  const first = buttons.first()
  const label = (await first.textContent()) ?? ''
  const [, from, to] = /Compare v(\d+) → v(\d+)/.exec(label) ?? []
  await first.focus()
  await page.keyboard.press('Enter')
  await expect(diff).toBeFocused()
  await expect(diff).toBeInViewport()
  await expect(diff.getByText(new RegExp(`v${from} → v${to}: `))).toBeVisible()

  for (const width of [1400, 390]) {
    for (const theme of ['light', 'dark']) {
      await page.setViewportSize({ width, height: 900 })
      await page.evaluate((t) => document.documentElement.setAttribute('data-theme', t), theme)
      await diff.scrollIntoViewIfNeeded()
      await page.screenshot({ path: `test-results/screens/compare-focus-${width}-${theme}.png` })
    }
  }
  await expect(diff).toBeFocused()
})
