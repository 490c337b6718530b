import { expect, test, type Page } from '@playwright/test'
import type { SchemaReport } from '../lib/schema/types'

const LOOM_TABLES = [
  'loom.working_memory',
  'loom.runs',
  'loom.conversations',
  'loom.conversation_turns',
  'loom.memory',
  'loom.context_blobs',
  'loom_telemetry.search_trace_log',
  'loom_runs.audit_log',
  'loom_runs.working_memory_history',
  'loom_runs.working_memory_history_mv',
]

async function realReport(page: Page): Promise<SchemaReport> {
  const res = await page.request.get('/api/schema')
  expect(res.status()).toBe(200)
  return (await res.json()) as SchemaReport
}

test('the demo schema: every table present, working-memory parts, history installed (light and dark)', async ({
  page,
}) => {
  const report = await realReport(page)
  expect(report.status).toBe('ok')
  await page.goto('/schema')
  await expect(page).toHaveTitle('Schema · Loom Runs')
  const summary = page.getByRole('status', { name: 'Schema summary' })
  await expect(summary).toContainText(
    `Schema matches the contract: ${report.tables.length} of ${report.tables.length} tables and views present.`,
  )
  await expect(summary).toContainText('0 problems')

  for (const name of LOOM_TABLES) {
    const card = page.getByRole('region', { name, exact: true })
    await expect(card).toBeVisible()
    await expect(card.getByTestId('schema-badge')).toHaveText('OK')
  }
  // The run index is folded while it is fine; unfolding shows its objects, all OK.
  await page.locator('summary', { hasText: 'Run index' }).click()
  for (const t of report.tables.filter((x) => x.group === 'runIndex')) {
    await expect(page.getByRole('region', { name: t.fullName, exact: true }).getByTestId('schema-badge')).toHaveText(
      'OK',
    )
  }
  await expect(
    page.locator('[data-status]:not([data-status="ok"])').and(page.locator('section[data-table]')),
  ).toHaveCount(0)

  const wm = page.getByRole('region', { name: 'Working memory parts', exact: true })
  await expect(wm.getByTestId('wm-parts')).toHaveText(String(report.workingMemory!.activeParts))
  expect(report.workingMemory!.activeParts).toBeGreaterThan(0)
  await expect(wm.getByTestId('wm-unmerged')).toHaveText(report.workingMemory!.unmergedVersions!.toLocaleString('en'))
  await expect(wm).toContainText(
    'Unmerged versions: the Checkpoint tab can still show them; they disappear when ClickHouse merges parts.',
  )

  const history = page.getByRole('region', { name: 'History capture', exact: true })
  await expect(history.getByTestId('history-installed')).toHaveText('yes')
  await expect(history.getByTestId('schema-badge')).toHaveText('Capturing')
  expect(report.history.rows).toBeGreaterThan(0)

  // No mapping configured: the card says the contract's names are used and how to map renamed ones.
  expect(report.mapping).toEqual({ source: null, tables: [] })
  const mapping = page.getByRole('region', { name: 'Schema mapping', exact: true })
  await expect(mapping.getByTestId('schema-badge')).toHaveText('Contract names')
  await expect(mapping).toContainText('LOOM_RUNS_SCHEMA_MAP')

  await page.evaluate(() => window.scrollTo(0, 0))
  await page.screenshot({ path: 'test-results/screens/schema.png', fullPage: true })
  await page.getByRole('button', { name: 'Switch to dark mode' }).click()
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark')
  await page.screenshot({ path: 'test-results/screens/schema-dark.png', fullPage: true })
  await page.getByRole('button', { name: 'Switch to light mode' }).click()
})
