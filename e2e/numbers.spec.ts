import { expect, test, type Page } from '@playwright/test'
import { DEMO_RUNS } from '../lib/demo/scenarios'
import { links } from '../lib/links'
import { screensAtWidths } from './screens'

const screens = (page: Page, name: string) => screensAtWidths(page, `numbers-${name}`, { fullPage: true })

test('a changed line highlights the words that changed, not the whole line', async ({ page }) => {
  await page.goto(links.run(DEMO_RUNS.edgeCase))
  const lines = page.getByRole('region', { name: 'Compare versions' }).getByRole('table', { name: 'Line diff' })
  const added = lines.locator('[data-change="added"]').first()
  await expect(added.locator('ins')).toHaveText([' 🧵'])
  await expect(added).toContainText('done: ü "quoted" 50% a/b 🧵')
  await expect(lines.locator('[data-change="removed"]').first().locator('del')).toHaveCount(0)
  // A line that is new as a whole is not word-highlighted.
  await expect(lines.locator('[data-change="added"]').nth(1)).toHaveText(/second line/)
  await expect(lines.locator('[data-change="added"]').nth(1).locator('ins')).toHaveCount(0)
  await screens(page, 'word-diff')
})

test('searches: a memory written after the search is labelled later, not "this run"', async ({ page }) => {
  await page.goto(links.run(DEMO_RUNS.support, { tab: 'searches' }))
  const row = page.getByRole('table', { name: 'Ranked hits' }).locator('tr[data-memory-key="policy.refund.damaged"]')
  const writer = row.locator('td').nth(4)
  await expect(writer).toContainText('unknown: no stored version is older than the search')
  await expect(writer).toContainText(/later: v1 by this run, \d+(s| ms) after the search/)
  await screens(page, 'searches')
})

test('memories: the latest version number and the versions still stored are told apart', async ({ page }) => {
  await page.goto(links.run(DEMO_RUNS.researchReader, { tab: 'memories' }))
  const row = page
    .getByRole('table', { name: 'Memories written by this run' })
    .locator('tr[data-memory-key="vendor.contoso.tier-2.price"]')
  await expect(row.locator('td').nth(1)).toHaveText('v2')
  await expect(row.locator('td').nth(2)).toContainText('1 stored (v2)')
  await expect(row.locator('td').nth(2)).toContainText('v1 is not stored: merged away, or written by another run')
  await screens(page, 'memories')
})

test('turns: the run counter and the bound transcripts are named apart', async ({ page }) => {
  await page.goto(links.run(DEMO_RUNS.batch, { tab: 'conversation' }))
  const header = page.getByRole('region', { name: 'Run summary' })
  await expect(header).toContainText('600 counted by the run')
  await expect(header).toContainText('no transcript bound')
  await expect(page.getByText('No conversation is bound to this run')).toBeVisible()
  await expect(page.getByText(/comes from the run's own counter \(loom\.runs\.turns\)/)).toBeVisible()
})

test('a timeline that spans days shows dates in its rows', async ({ page, request }) => {
  await page.goto(links.run(DEMO_RUNS.expiredBlob, { tab: 'timeline' }))
  const list = page.getByRole('listbox', { name: /Timeline events/ })
  const times = list.getByTestId('timeline-time')
  await expect(times.first()).toBeVisible()
  for (const t of await times.allTextContents()) expect(t).toMatch(/^\d{2} [A-Z][a-z]{2} \d{2}:\d{2}:\d{2}\.\d{3}$/)
  await expect(page.getByTestId('timeline-head')).toContainText('date, time (UTC)')
  // A run whose events all fall on one UTC day shows times of day only. The demo is seeded
  // relative to now, so which run that is depends on the hour: ask the API.
  let oneDay: (typeof DEMO_RUNS)[keyof typeof DEMO_RUNS] | null = null
  for (const run of [
    DEMO_RUNS.batch,
    DEMO_RUNS.support,
    DEMO_RUNS.nearMiss,
    DEMO_RUNS.tooLarge,
    DEMO_RUNS.operatorEdited,
  ]) {
    const { events } = (await (await request.get(links.api.timeline(run))).json()) as { events: { at: string }[] }
    if (events.length > 0 && new Set(events.map((e) => e.at.slice(0, 10))).size === 1) {
      oneDay = run
      break
    }
  }
  expect(oneDay, 'some demo run lies within one UTC day').not.toBeNull()
  await page.goto(links.run(oneDay!, { tab: 'timeline' }))
  await expect(
    page
      .getByRole('listbox', { name: /Timeline events/ })
      .getByTestId('timeline-time')
      .first(),
  ).toHaveText(/^\d{2}:\d{2}:\d{2}\.\d{3}$/)
  await page.goto(links.run(DEMO_RUNS.expiredBlob, { tab: 'timeline' }))
  await expect(page.getByRole('listbox', { name: /Timeline events/ })).toBeVisible()
  await screens(page, 'timeline-days')
})

test('slowest runs rank by active time and show idle time apart', async ({ page }) => {
  const run = DEMO_RUNS.expiredBlob
  const goal = 'Summarize the board minutes archive (2019-2024)'
  // Over all runs, the run that sat dead for days between its crash and its resume is not among the slowest.
  await page.goto('/')
  const slowest = page.getByRole('region', { name: 'Slowest runs (active time)' })
  await expect(slowest.getByRole('link')).toHaveCount(5)
  await expect(slowest).not.toContainText(goal)
  // Among its agent's runs it shows its few minutes of work and its days of idle time apart.
  await page.goto(`/?${new URLSearchParams({ org: run.org, namespace: run.namespace, agent: run.agent })}`)
  const items = page.getByRole('region', { name: 'Slowest runs (active time)' }).locator('li')
  await expect(items.first()).not.toContainText(goal)
  const item = items.filter({ hasText: goal })
  await expect(item.getByTestId('top-split')).toBeVisible()
  await expect(item.getByTestId('top-split')).toHaveText(/^active \d+m \d+s · idle 4d 22h · 4d 22h wall clock$/)
  await expect(item.getByTestId('top-value')).toHaveText(/^\d+m \d+s$/)
  await screens(page, 'slowest')
})
