import { expect, test } from '@playwright/test'
import { gotoHydrated } from './hydrated'
import { DEMO_RUNS } from '../lib/demo/scenarios'

test('the runs page lists demo runs with status, agent and checkpoint size', async ({ page }) => {
  await gotoHydrated(page, '/')
  await expect(page).toHaveTitle('Runs · Loom Runs')
  const table = page.getByRole('table', { name: 'Runs' })
  await expect(table).toBeVisible()
  await expect(table.locator('tbody tr')).toHaveCount(50)
  // The still-running demo run is on the first page with its badge.
  const running = table.locator(`tr[data-run-id="${DEMO_RUNS.running.runId}"]`)
  await expect(running).toBeVisible()
  await expect(running.getByText('running', { exact: true }).first()).toBeVisible()
  await expect(page.getByRole('button', { name: 'Pause' })).toBeVisible()
  await page.screenshot({ path: 'test-results/screens/runs.png', fullPage: true })
})

test('filters live in the URL and narrow the table', async ({ page }) => {
  await gotoHydrated(page, '/')
  await page.getByLabel('Status').selectOption('failed')
  await expect(page).toHaveURL(/status=failed/)
  const rows = page.getByRole('table', { name: 'Runs' }).locator('tbody tr')
  // The previous page stays on screen while the filtered one loads.
  await expect.poll(async () => [...new Set(await rows.locator('.badge').allTextContents())]).toEqual(['failed'])

  // A shared link opens the same view.
  await gotoHydrated(page, `/?agent=${DEMO_RUNS.nearMiss.agent}`)
  await expect(page.getByLabel('Agent', { exact: true })).toHaveValue(DEMO_RUNS.nearMiss.agent)
  await expect(page.locator(`tr[data-run-id="${DEMO_RUNS.nearMiss.runId}"]`)).toBeVisible()

  await gotoHydrated(page, '/?q=no-such-goal-anywhere')
  await expect(page.getByText('No runs match search "no-such-goal-anywhere".')).toBeVisible()
  // No time range is set, so none is suggested.
  await expect(page.getByTestId('no-runs-match')).not.toContainText('time range')
})

test('a partial org matches nothing: the empty state names the filter, offers the org it may mean, and clears with a button', async ({
  page,
}) => {
  await gotoHydrated(page, '/?org=ac')
  const empty = page.getByTestId('no-runs-match')
  await expect(empty).toContainText('No runs match org = ac.')
  await expect(empty).toContainText('org matches a whole value, not part of one. Did you mean acme')
  await expect(empty).not.toContainText('time range')
  await empty.getByRole('link', { name: 'acme' }).click()
  await expect(page).toHaveURL(/[?&]org=acme(&|$)/)
  await expect(page.getByRole('table', { name: 'Runs' }).locator('tbody tr').first()).toBeVisible()

  await gotoHydrated(page, '/?org=ac&status=failed')
  await expect(page.getByTestId('no-runs-match')).toContainText('No runs match org = ac, status failed.')
  await page.getByTestId('no-runs-match').getByRole('button', { name: 'Clear filters' }).click()
  await expect(page).toHaveURL(/\/$/)
  await expect(page.getByRole('table', { name: 'Runs' }).locator('tbody tr')).toHaveCount(50)
})

test('keyset pages: older runs, then back to the newest', async ({ page }) => {
  await gotoHydrated(page, '/')
  const rows = page.getByRole('table', { name: 'Runs' }).locator('tbody tr')
  await expect(rows).toHaveCount(50)
  const first = await rows.first().getAttribute('data-run-id')
  await page.getByRole('button', { name: 'Older →' }).click()
  await expect(page).toHaveURL(/cursor=/)
  await expect(rows.first()).not.toHaveAttribute('data-run-id', first!)
  const second = await rows.evaluateAll((els) => els.map((e) => e.getAttribute('data-run-id')))
  expect(second).not.toContain(first)
  await page.getByRole('button', { name: '← Newest' }).click()
  await expect(rows.first()).toHaveAttribute('data-run-id', first!)
})

test('dark mode toggles and is remembered', async ({ page }) => {
  await gotoHydrated(page, '/')
  const html = page.locator('html')
  const before = await html.getAttribute('data-theme')
  await page.getByRole('button', { name: /Switch to (dark|light) mode/ }).click()
  await expect(html).not.toHaveAttribute('data-theme', before ?? '')
  const after = await html.getAttribute('data-theme')
  await page.reload()
  await expect(html).toHaveAttribute('data-theme', after!)
  await page.screenshot({ path: 'test-results/screens/runs-theme.png' })
})
