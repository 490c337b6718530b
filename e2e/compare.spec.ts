import { expect, test, type APIRequestContext } from '@playwright/test'
import { links } from '../lib/links'
import { gotoHydrated } from './hydrated'

type Side = {
  run: { org: string; namespace: string; agent: string; runId: string; attempt: number; goal: string }
  resumes: unknown[]
  checkpoints: unknown[]
}
type Compare = { a: Side; b: Side | null; why?: string }

const keyOf = (r: Side['run']) => [r.org, r.namespace, r.agent, r.runId].map(encodeURIComponent).join('/')

/** A failed demo run whose agent succeeded before it, with the comparison the API gives. */
async function failedWithEarlierSuccess(request: APIRequestContext): Promise<Compare> {
  const { runs } = await (await request.get('/api/runs?status=failed&limit=100')).json()
  for (const r of runs) {
    const res = await request.get(`/api/compare?a=${encodeURIComponent(keyOf(r))}`)
    expect(res.status()).toBe(200)
    const body = (await res.json()) as Compare
    if (body.b) return body
  }
  throw new Error('the demo has no failed run whose agent succeeded before it')
}

test("compare a failed run with its agent's last success: reached from the run page by keyboard, figures side by side, on a phone too", async ({
  page,
  request,
}) => {
  const data = await failedWithEarlierSuccess(request)
  const { a, b } = data as { a: Side; b: Side }
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'])
  await gotoHydrated(page, links.run(a.run))
  // The incident summary, copied as markdown for a ticket: the same text the API gives.
  await page.getByRole('button', { name: 'Copy incident summary' }).click()
  await expect(page.getByText('Copied as markdown.')).toBeVisible()
  const copied = await page.evaluate(() => navigator.clipboard.readText())
  expect(copied).toMatch(new RegExp(`^# Incident: `))
  expect(copied).toContain(`\`${a.run.org}/${a.run.namespace}/${a.run.agent}/${a.run.runId}\``)
  expect(copied).toContain('## Why it resumed where it did')
  const compare = page.getByRole('link', { name: 'Compare', exact: true })
  await compare.focus()
  await page.keyboard.press('Enter')
  await expect(page).toHaveURL(`/compare?a=${encodeURIComponent(keyOf(a.run))}`)
  await expect(page).toHaveTitle(new RegExp(`^Compare ${a.run.runId}`))
  await expect(page.getByRole('heading', { name: 'Compare runs', level: 1 })).toBeVisible()
  await expect(page.getByRole('link', { name: a.run.goal || a.run.runId })).toBeVisible()
  await expect(page.getByRole('link', { name: b.run.goal || b.run.runId }).first()).toBeVisible()
  const facts = page.getByRole('table', { name: 'The two runs side by side' })
  const row = (label: string) =>
    facts.getByRole('row').filter({ has: page.getByRole('rowheader', { name: label, exact: true }) })
  await expect(row('Attempts').getByRole('cell')).toHaveText([String(a.run.attempt), String(b.run.attempt)])
  await expect(row('Resumes').getByRole('cell')).toHaveText([String(a.resumes.length), String(b.resumes.length)])
  await expect(row('Checkpoint versions').getByRole('cell')).toHaveText([
    String(a.checkpoints.length),
    String(b.checkpoints.length),
  ])
  await expect(page.getByRole('heading', { name: 'Checkpoint growth' })).toBeVisible()
  await expect(page.getByRole('heading', { name: 'Checkpoints now: B → A' })).toBeVisible()
  await expect(page.locator('[aria-busy="true"], .skeleton')).toHaveCount(0)

  for (const width of [1400, 390]) {
    for (const theme of ['light', 'dark']) {
      await page.setViewportSize({ width, height: 900 })
      await page.evaluate((t) => document.documentElement.setAttribute('data-theme', t), theme)
      await page.screenshot({ path: test.info().outputPath(`compare-${width}-${theme}.png`), fullPage: true })
    }
  }
  // No sideways scrolling of the page on a phone (the figures table scrolls in its own box if it must).
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  )
  expect(overflow).toBeLessThanOrEqual(0)
})

test('a run without an earlier success says why; an unknown run shows the error with a retry', async ({
  page,
  request,
}) => {
  const { runs } = await (await request.get('/api/runs?limit=200')).json()
  let lonely: Compare | null = null
  for (const r of runs) {
    const body = (await (await request.get(`/api/compare?a=${encodeURIComponent(keyOf(r))}`)).json()) as Compare
    if (!body.b) {
      lonely = body
      break
    }
  }
  expect(lonely, 'some demo run has no earlier success').not.toBeNull()
  await page.goto(`/compare?a=${encodeURIComponent(keyOf(lonely!.a.run))}`)
  await expect(page.getByRole('note')).toContainText(`Nothing to compare with: ${lonely!.why}`)
  await page.goto(`/compare?a=${encodeURIComponent('no/such/run/here')}`)
  await expect(page.getByText(/No run here under no\/such\/run/)).toBeVisible()
  await expect(page.getByRole('button', { name: /Retry/ })).toBeVisible()
})
