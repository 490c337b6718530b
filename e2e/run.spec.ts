import { expect, test } from '@playwright/test'
import { DEMO_RUNS, EDGE_CASE, NEAR_MISS } from '../lib/demo/scenarios'
import { links } from '../lib/links'
import { gotoHydrated } from './hydrated'

test('from the list to the resumed batch run: header and its cleared checkpoint', async ({ page }) => {
  await gotoHydrated(page, `/?agent=${DEMO_RUNS.batch.agent}&org=${DEMO_RUNS.batch.org}`)
  await page.locator(`tr[data-run-id="${DEMO_RUNS.batch.runId}"] a`).first().click()
  await expect(page).toHaveURL(new RegExp(`/runs/acme/prod/batch-indexer/${DEMO_RUNS.batch.runId}`))
  await expect(page).toHaveTitle(`${DEMO_RUNS.batch.runId} · batch-indexer · Loom Runs`)
  const summary = page.getByRole('region', { name: 'Run summary' })
  await expect(summary.getByText('resumed 1×')).toBeVisible()
  await expect(summary.getByText('succeeded', { exact: true })).toBeVisible()
  const checkpoint = page.locator('[data-block-key="checkpoint"]')
  await expect(checkpoint.getByText('v301')).toBeVisible()
  await expect(checkpoint.getByText(/cleared \(tombstone\)/)).toBeVisible()
  // The reflection reads as its summary and lists, not as one line of raw JSON.
  const reflection = summary.getByTestId('reflection')
  await expect(reflection).toContainText(
    'Finished the catalog after one crash; the resume skipped the 120 checkpointed items.',
  )
  await reflection.getByText('Show went well (1), went wrong (1), lessons (1)').click()
  await expect(reflection.getByRole('heading', { name: 'Went wrong' })).toBeVisible()
  await expect(
    reflection.getByRole('listitem').filter({ hasText: 'The first process was OOM-killed while embedding item-121.' }),
  ).toBeVisible()
  await expect(summary).not.toContainText('"went_well"')
  await page.screenshot({ path: 'test-results/screens/run-batch.png', fullPage: true })
})

test('a run with blocks under two sessions warns that a resume sees only one', async ({ page }) => {
  await page.goto(links.run(DEMO_RUNS.nearMiss, { tab: 'blocks' }))
  await expect(page.getByText(/blocks under 2 different user\/session identities/)).toBeVisible()
  await expect(
    page.getByRole('region', { name: `Blocks for user ${NEAR_MISS.userId}, session ${NEAR_MISS.firstSessionId}` }),
  ).toBeVisible()
  await expect(
    page.getByRole('region', { name: `Blocks for user ${NEAR_MISS.userId}, session ${NEAR_MISS.secondSessionId}` }),
  ).toBeVisible()
  await page.screenshot({ path: 'test-results/screens/run-near-miss.png', fullPage: true })
})

test('a run id with awkward characters opens from its link and from the list', async ({ page }) => {
  const runIdLine = page.getByRole('region', { name: 'Run summary' }).getByText(`run_id: ${EDGE_CASE.runId}`)
  await page.goto(links.run(EDGE_CASE))
  await expect(runIdLine).toBeVisible()
  await expect(page).toHaveTitle(`${EDGE_CASE.runId} · ${EDGE_CASE.agent} · Loom Runs`)
  await gotoHydrated(page, `/?agent=${EDGE_CASE.agent}`)
  await page
    .locator(`tr[data-run-id="${EDGE_CASE.runId.replace(/"/g, '\\"')}"] a`)
    .first()
    .click()
  await expect(runIdLine).toBeVisible()
})

test('an unknown run answers 404 with a page that says so and links back', async ({ page }) => {
  const res = await page.goto(links.run({ ...DEMO_RUNS.batch, runId: 'missing-run' }))
  expect(res?.status()).toBe(404)
  await expect(page.getByRole('heading', { name: 'Run not found' })).toBeVisible()
  await page.getByRole('link', { name: 'Back to all runs' }).click()
  await expect(page).toHaveURL(/\/$/)
  await expect(page.getByRole('table', { name: 'Runs' })).toBeVisible()
})

test("any unknown path gets the console's own 404 page", async ({ page }) => {
  for (const path of ['/runs/acme/prod', '/no-such-page']) {
    const res = await page.goto(path)
    expect(res?.status(), path).toBe(404)
    await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible()
    await expect(page.getByRole('link', { name: 'Back to all runs' })).toBeVisible()
  }
})

test("a run page's HTML already holds the run's header; the client does not ask for it again", async ({
  page,
  request,
}) => {
  const run = DEMO_RUNS.batch
  const detail = await (await request.get(links.api.run(run))).json()
  const html = await (await request.get(links.run(run))).text()
  expect(html).toContain(detail.run.goal)
  const asked: string[] = []
  page.on('request', (r) => {
    if (new URL(r.url()).pathname === links.api.run(run)) asked.push(r.url())
  })
  await page.goto(links.run(run))
  await expect(page.getByRole('region', { name: 'Run summary' }).getByText('succeeded', { exact: true })).toBeVisible()
  await page.waitForLoadState('networkidle')
  expect(asked).toEqual([])
})

test('neither the runs page nor a run page renders other pages in the background (no prefetch of the links in view)', async ({
  page,
}) => {
  const background: string[] = []
  page.on('request', (r) => {
    // A prefetch is a request for a page's server payload (RSC) made without a click.
    if (r.headers()['rsc'] === '1' || new URL(r.url()).searchParams.has('_rsc')) background.push(r.url())
  })
  for (const path of ['/', links.run(DEMO_RUNS.batch), links.run(DEMO_RUNS.batch, { tab: 'memories' })]) {
    await gotoHydrated(page, path)
    await page.waitForLoadState('networkidle')
    await page.waitForTimeout(500)
  }
  expect(background).toEqual([])
  // A click still opens the page it names (the breadcrumb to the agent's runs).
  await page.getByRole('link', { name: DEMO_RUNS.batch.agent, exact: true }).first().click()
  await expect(page).toHaveURL(new RegExp(`agent=${DEMO_RUNS.batch.agent}`))
  await expect(
    page.getByRole('table', { name: 'Runs' }).locator(`tr[data-run-id="${DEMO_RUNS.batch.runId}"]`),
  ).toBeVisible()
})
