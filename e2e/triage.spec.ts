import { expect, test, type APIRequestContext, type Page as BrowserPage } from '@playwright/test'
import { gotoHydrated, hydrated } from './hydrated'
import { screensAtWidths } from './screens'

type Run = { runId: string; org: string; flags: string[] }
type Page = { runs: Run[]; nextCursor: string | null }

/**
 * The page's own runs-list requests from now on. The "Needs attention" panel reads its own
 * per-flag lists; the page's list is the one without a flag.
 */
function listRequestsOf(page: BrowserPage): string[] {
  const seen: string[] = []
  page.on('request', (r) => {
    const url = new URL(r.url())
    if (url.pathname === '/api/runs' && !url.searchParams.has('flag')) seen.push(url.search)
  })
  return seen
}

async function api<T>(request: APIRequestContext, url: string): Promise<T> {
  const res = await request.get(url)
  expect(res.status(), url).toBe(200)
  return (await res.json()) as T
}

test('the HTML of /?status=failed already holds the first page of failed runs, and the client does not fetch it again', async ({
  page,
  request,
}) => {
  const failed = await api<Page>(request, '/api/runs?status=failed&limit=50')
  expect(failed.runs.length).toBeGreaterThan(0)
  // Fetched as plain HTTP: no script runs.
  const html = await (await request.get('/?status=failed')).text()
  for (const run of failed.runs.slice(0, 5)) expect(html).toContain(`data-run-id="${run.runId}"`)
  // The page itself is not fetched again.
  const listRequests = listRequestsOf(page)
  await page.goto('/?status=failed')
  const rows = page.getByRole('table', { name: 'Runs' }).locator('tbody tr')
  await expect(rows).toHaveCount(failed.runs.length)
  await expect(rows.first()).toHaveAttribute('data-run-id', failed.runs[0].runId)
  await page.waitForTimeout(1_000)
  expect(listRequests).toEqual([])
  // Run links are not prefetched in the background.
  const prefetches = await page.evaluate(() =>
    performance
      .getEntriesByType('resource')
      .map((e) => new URL(e.name).pathname)
      .filter((p) => p.startsWith('/runs/')),
  )
  expect(prefetches).toEqual([])
})

test("the rows do not wait for their flags: the HTML streams them after the rows, and each row ends with the API's flags, without a second fetch", async ({
  page,
  request,
}) => {
  const first = await api<Page>(request, '/api/runs?limit=50')
  const flagged = first.runs.filter((r) => r.flags.length > 0)
  expect(flagged.length).toBeGreaterThan(0)
  const html = await (await request.get('/')).text()
  const pending = html.indexOf('data-flags-pending')
  expect(pending, 'the rows are sent with a placeholder for their flags').toBeGreaterThan(0)
  expect(html.indexOf(`data-run-id="${first.runs[0].runId}"`)).toBeLessThan(pending)
  // The same response goes on with the flags once read.
  expect(html.lastIndexOf(`data-flag="${flagged[0].flags[0]}"`)).toBeGreaterThan(pending)
  const listRequests = listRequestsOf(page)
  await page.goto('/')
  await expect(page.locator('[data-flags-pending]')).toHaveCount(0)
  // Flags arriving do not make a row "changed": nothing flashes as if the live refresh found a write.
  await expect(page.locator('tr.row-fresh')).toHaveCount(0)
  const shown = await page
    .getByRole('table', { name: 'Runs' })
    .locator('tbody tr')
    .evaluateAll((trs) =>
      trs.map((tr) => [
        tr.getAttribute('data-run-id'),
        [...tr.querySelectorAll('[data-flag]')].map((b) => b.getAttribute('data-flag')),
      ]),
    )
  expect(shown).toEqual(first.runs.map((r) => [r.runId, r.flags]))
  expect(listRequests).toEqual([])
})

test('a flag in the URL narrows the list to the runs the API flags, with badges; the flag filter writes the URL', async ({
  page,
  request,
}) => {
  const all = await api<Page>(request, '/api/runs?limit=200')
  const resumed = await api<Page>(request, '/api/runs?flag=resumed&limit=50')
  expect(resumed.runs.length).toBeGreaterThan(0)
  expect(resumed.runs.length).toBeLessThan(all.runs.length)
  await page.goto('/?flag=resumed')
  const rows = page.getByRole('table', { name: 'Runs' }).locator('tbody tr')
  await expect(rows).toHaveCount(resumed.runs.length)
  await expect(page.locator('[data-flags-pending]')).toHaveCount(0)
  const shown = await rows.evaluateAll((els) => els.map((e) => e.getAttribute('data-run-id')))
  expect(shown).toEqual(resumed.runs.map((r) => r.runId))
  // Every flag the API names is a badge on its row.
  for (const run of resumed.runs.slice(0, 5)) {
    const badges = await page
      .locator(`tr[data-run-id="${run.runId}"] [data-flag]`)
      .evaluateAll((els) => els.map((e) => e.getAttribute('data-flag')))
    expect(badges).toEqual(run.flags)
  }

  // Picking a second flag in the filter adds it to the URL and narrows further.
  await hydrated(page)
  await page.getByText('Flags', { exact: true }).locator('..').locator('summary').click()
  await page.getByRole('checkbox', { name: /^crash loop/ }).check()
  await expect(page).toHaveURL(/flag=resumed&flag=crash_loop|flag=crash_loop&flag=resumed/)
  const both = await api<Page>(request, '/api/runs?flag=resumed&flag=crash_loop&limit=50')
  if (both.runs.length === 0)
    await expect(page.getByTestId('no-runs-match')).toContainText('No runs match flag resumed, flag crash loop.')
  else await expect(rows).toHaveCount(both.runs.length)
})

test('summary counts link to the lists they count', async ({ page, request }) => {
  const analytics = await api<{ resumes: { resumedRuns: number }; totals: { runs: number } }>(
    request,
    '/api/runs/analytics',
  )
  await page.goto('/')
  const stats = page.getByTestId('summary-stats')
  // The charts' query waits for the list and is the heaviest on the page: give it time on a busy machine.
  await expect(stats).toBeVisible({ timeout: 60_000 })
  const resumedLink = stats.getByRole('link', { name: new RegExp(`^${analytics.resumes.resumedRuns} resumed runs?$`) })
  await expect(resumedLink).toHaveAttribute('href', '/?flag=resumed')
  await expect(stats.getByRole('link', { name: /checkpoints? at ≥ 90% of char_limit/ })).toHaveAttribute(
    'href',
    '/?flag=near_limit',
  )
  await expect(stats.getByRole('link', { name: new RegExp(`^${analytics.totals.runs} runs?$`) })).toHaveAttribute(
    'href',
    '/',
  )
  // The charts' legends link their counts too: a state to its status, resumes to the resumed runs.
  const analyticsFull = await api<{ totals: { byStatus: Record<string, number> } }>(request, '/api/runs/analytics')
  const failedLink = page
    .getByRole('list', { name: 'Run counts by state' })
    .getByRole('link', { name: `failed ${analyticsFull.totals.byStatus.failed}` })
  await expect(failedLink).toHaveAttribute('href', '/?status=failed')
  await resumedLink.click()
  await expect(page).toHaveURL(/\?flag=resumed$/)
  const resumed = await api<Page>(request, '/api/runs?flag=resumed&limit=50')
  await expect(page.getByRole('table', { name: 'Runs' }).locator('tbody tr').first()).toHaveAttribute(
    'data-run-id',
    resumed.runs[0].runId,
  )
})

test('typing "ac" in org suggests the orgs the facets route names', async ({ page, request }) => {
  const facets = await api<{ values: { value: string; runs: number }[] }>(
    request,
    '/api/runs/facets?field=org&prefix=ac',
  )
  expect(facets.values.map((v) => v.value)).toContain('acme')
  await gotoHydrated(page, '/')
  const org = page.getByLabel('Org', { exact: true })
  await org.fill('ac')
  const listId = await org.getAttribute('list')
  const options = page.locator(`datalist[id="${listId}"] option`)
  await expect(options).toHaveCount(facets.values.length)
  expect(await options.evaluateAll((els) => els.map((e) => (e as HTMLOptionElement).value))).toEqual(
    facets.values.map((v) => v.value),
  )
  await expect(options.first()).toHaveAttribute('label', `${facets.values[0].runs} runs`)
})

test('Needs attention counts each flag and links to its list; no sideways scrolling on a phone', async ({
  page,
  request,
}) => {
  await gotoHydrated(page, '/')
  // Open with its counts at once, missing blobs (a run that cannot continue) among them.
  const toggle = page.getByRole('button', { name: 'Needs attention' })
  await expect(toggle).toHaveAttribute('aria-expanded', 'true')
  for (const flag of ['stalled', 'crash_loop', 'missing_blob', 'near_miss', 'tie', 'near_limit']) {
    const list = await api<Page>(request, `/api/runs?flag=${flag}&limit=100`)
    const item = page.locator(`a[data-flag="${flag}"]`)
    await expect(item).toHaveAttribute('href', `/?flag=${flag}`)
    await expect(item.locator('span').first()).toHaveText(`${list.runs.length}${list.nextCursor ? '+' : ''}`)
  }
  // The troubled runs grouped by what they share: the same cohorts the API gives, largest first, each a link to its list.
  const { cohorts } = await api<{
    cohorts: { key: string; runs: number; agent: string; status: string; href: string }[]
  }>(request, '/api/runs/cohorts')
  expect(cohorts.length).toBeGreaterThan(0)
  const shown = page.getByRole('list', { name: 'Cohorts of troubled runs' }).getByRole('link')
  await expect(shown).toHaveCount(Math.min(5, cohorts.length))
  for (const [i, c] of cohorts.slice(0, 5).entries()) {
    await expect(shown.nth(i)).toHaveAttribute('href', c.href)
    await expect(shown.nth(i)).toContainText(`${c.runs} run${c.runs === 1 ? '' : 's'} of ${c.agent} (${c.status}): `)
  }
  const nearMiss = await api<Page>(request, '/api/runs?flag=near_miss&limit=50')
  await page.locator('a[data-flag="near_miss"]').click()
  await expect(page).toHaveURL(/\?flag=near_miss$/)
  await expect(page.getByRole('table', { name: 'Runs' }).locator('tbody tr')).toHaveCount(nearMiss.runs.length)

  const missingBlob = await api<Page>(request, '/api/runs?flag=missing_blob&limit=100')
  expect(missingBlob.runs.length).toBeGreaterThan(0)
  // Closing it is remembered in this browser.
  await gotoHydrated(page, '/')
  await page.getByRole('button', { name: 'Needs attention' }).click()
  await expect(page.locator('a[data-flag="stalled"]')).toHaveCount(0)
  await page.reload()
  await hydrated(page)
  await expect(page.getByRole('button', { name: 'Needs attention' })).toHaveAttribute('aria-expanded', 'false')
  await page.getByRole('button', { name: 'Needs attention' }).click()

  await gotoHydrated(page, '/?flag=resumed')
  await expect(page.locator('a[data-flag="stalled"] span').first()).not.toHaveText('counting…')
  await screensAtWidths(page, 'triage', { fullPage: true })
  await page.setViewportSize({ width: 390, height: 900 })
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390)
  // The flag list, opened on a phone, stays within the screen too; Escape closes it and keeps focus on it.
  const summary = page.getByText('Flags', { exact: true }).locator('..').locator('summary')
  await summary.focus()
  await page.keyboard.press('Enter')
  await expect(page.getByRole('checkbox', { name: /^stalled/ })).toBeVisible()
  await page.screenshot({ path: `${process.env.SCREENS_DIR ?? 'test-results/screens'}/triage-flags-390.png` })
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390)
  await page.keyboard.press('Tab')
  await page.keyboard.press('Escape')
  await expect(page.getByRole('checkbox', { name: /^stalled/ })).toBeHidden()
  await expect(summary).toBeFocused()
})

test('a flag-filtered list computes its summary only when asked, then shows the counts the API gives', async ({
  page,
  request,
}) => {
  const analyticsCalls: string[] = []
  page.on('request', (r) => {
    if (r.url().includes('/api/runs/analytics')) analyticsCalls.push(r.url())
  })
  const expected = await api<{ totals: { runs: number } }>(request, '/api/runs/analytics?flag=resumed')
  await gotoHydrated(page, '/?flag=resumed')
  const ask = page.getByTestId('summary-on-request')
  await expect(ask).toContainText('checks the flags of every run')
  await expect(page.getByRole('table', { name: 'Runs' }).locator('tbody tr').first()).toBeVisible()
  expect(analyticsCalls).toEqual([])
  await ask.getByRole('button', { name: 'Compute summary' }).click()
  const stats = page.getByTestId('summary-stats')
  await expect(stats.getByRole('link', { name: new RegExp(`^${expected.totals.runs} runs?$`) })).toBeVisible({
    timeout: 60_000,
  })
  expect(analyticsCalls.length).toBeGreaterThan(0)
  expect(analyticsCalls.every((u) => new URL(u).searchParams.getAll('flag').join() === 'resumed')).toBe(true)
})

test('a flag badge takes focus and then shows what it means, not only on hover', async ({ page }) => {
  await gotoHydrated(page, '/?flag=resumed')
  const badge = page.getByRole('table', { name: 'Runs' }).locator('[data-flag="resumed"]').first()
  const shown = () => badge.evaluate((el) => getComputedStyle(el, '::after').content)
  expect(await shown()).toBe('none')
  await badge.focus()
  await expect(badge).toBeFocused()
  expect(await shown()).toBe('"Started more than once, or its checkpoint history shows a resume point"')
  // Screen readers get the meaning with the label.
  await expect(badge).toHaveText('resumed: Started more than once, or its checkpoint history shows a resume point')
})
