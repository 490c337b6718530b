import { expect, test, type Locator, type Page } from '@playwright/test'
import { DEMO_RUNS } from '../lib/demo/scenarios'
import { links } from '../lib/links'
import type { RunRef } from '../lib/loom/identity'
import { CRASH_LOOP_RUN, LONG_RESUME_RUN, NEAR_MISS_BEGUN_RUN, NEAR_MISS_NOW_RUN } from './resume-fixtures'
import { screensAtWidths } from './screens'

const runRef = (r: RunRef): RunRef => ({ org: r.org, namespace: r.namespace, agent: r.agent, runId: r.runId })

function shots(page: Page, name: string) {
  const diagram = page.getByRole('figure', { name: 'Resume flow diagram' })
  return screensAtWidths(page, `resume-flow-${name}`, {
    ready: async () => {
      // The diagram is drawn again for the theme.
      await expect(diagram).not.toHaveAttribute('aria-busy', 'true')
      await page.waitForTimeout(300)
      await diagram.scrollIntoViewIfNeeded()
    },
  })
}

/**
 * The smallest on-screen text size in px among the elements: computed size times the scale the SVG
 * around it is drawn at (an SVG squeezed into a box keeps its aspect ratio: the smaller ratio wins).
 */
async function smallestText(elements: Locator): Promise<number> {
  return elements.evaluateAll((els) => {
    let min = Infinity
    for (const el of els) {
      const size = parseFloat(getComputedStyle(el).fontSize)
      const svg = el.closest('svg')
      let scale = 1
      if (svg) {
        const box = svg.getBoundingClientRect()
        const vb = svg.viewBox.baseVal
        scale = vb && vb.width > 0 && vb.height > 0 ? Math.min(box.width / vb.width, box.height / vb.height) : 1
      }
      if (el.getBoundingClientRect().height > 0) min = Math.min(min, size * scale)
    }
    return min
  })
}

test('a run resumed 9 times: the 10-node diagram keeps its text at 11 px or more, and every ending says why', async ({
  page,
}) => {
  await page.goto(links.run(runRef(LONG_RESUME_RUN)))
  const figure = page.getByRole('figure', { name: 'Resume flow diagram' })
  const svg = figure.locator('svg').first()
  await expect(svg).toBeVisible()
  await expect(svg).toContainText('ended: run failed')
  const labels = svg.locator('.nodeLabel, .edgeLabel, text')
  expect(await labels.count()).toBeGreaterThan(10)
  expect(await smallestText(labels)).toBeGreaterThanOrEqual(11)
  // Zooming out as far as it goes keeps the text readable too.
  const zoomOut = figure.getByRole('button', { name: 'Zoom out' })
  while (await zoomOut.isEnabled()) await zoomOut.click()
  expect(await smallestText(labels)).toBeGreaterThanOrEqual(11)
  await expect(zoomOut).toBeDisabled()
  await figure.getByRole('button', { name: 'Zoom in' }).click()
  const explainer = page.getByRole('region', { name: 'Resume explainer' })
  await expect(explainer).toContainText('10 attempts: attempt 1 (began')
  await shots(page, 'ten-resumes')
})

test('past a dozen steps the flow is a list with the same content, text at 11 px or more', async ({ page }) => {
  await page.goto(links.run(runRef(CRASH_LOOP_RUN)))
  const figure = page.getByRole('figure', { name: 'Resume flow diagram' })
  const list = figure.getByRole('list', { name: 'Resume flow steps' })
  await expect(list).toBeVisible()
  await expect(list.getByRole('listitem')).toHaveCount(CRASH_LOOP_RUN.processes)
  await expect(list.getByRole('listitem').first()).toContainText('ended: crashed, a later process resumed')
  await expect(list.getByRole('listitem').last()).toContainText('ended: run failed')
  await expect(list.getByText('run.begin attempt 16 · new process · long gap')).toBeVisible()
  expect(await smallestText(list.locator('p, div'))).toBeGreaterThanOrEqual(11)
  await expect(figure.locator('svg')).toHaveCount(0)
  await shots(page, 'crash-loop')
})

test('the near miss in the run’s history: the explainer and the timeline say what the resume could not see', async ({
  page,
}) => {
  await page.goto(links.run(runRef(DEMO_RUNS.nearMiss)))
  const explainer = page.getByRole('region', { name: 'Resume explainer' })
  await expect(explainer).toContainText(
    /resumed at .* from nothing \(no earlier version, so resume returned None\); v40 under session s1 existed: 40 items redone/,
  )
  await expect(explainer.getByText('near miss', { exact: true })).toBeVisible()
  await expect(explainer).toContainText('attempt 1 (began')
  await expect(explainer).toContainText('wrote v1–v40 under session s1, not here')
  await shots(page, 'near-miss')

  // The timeline: the chart's resume marker, and the resume entry (the first write after it) in the list.
  await page.goto(links.run(runRef(DEMO_RUNS.nearMiss), { tab: 'timeline' }))
  const chart = page.getByRole('region', { name: 'Swimlane chart' })
  await expect(chart.getByText('resume · attempt 2 from nothing; v40 under session s1 existed')).toBeVisible()
  await expect(chart).toContainText('2 attempts: attempt 1 (began')
  const tl = await (await page.request.get(links.api.timeline(runRef(DEMO_RUNS.nearMiss)))).json()
  const first = tl.events.find(
    (e: { kind: string; version: string; sessionId: string }) =>
      e.kind === 'checkpoint' && e.version === '1' && e.sessionId === 's2',
  )
  await page.goto(links.run(runRef(DEMO_RUNS.nearMiss), { tab: 'timeline', event: first.id }))
  await expect(
    page.getByText('resume · from nothing; v40 under session s1 existed: 40 items redone').first(),
  ).toBeVisible()

  // The first session's own diagram: abandoned, not "run succeeded".
  await page.goto(links.run(runRef(DEMO_RUNS.nearMiss), { block: 'checkpoint', user: 'u-7', session: 's1' }))
  const svg = page.getByRole('figure', { name: 'Resume flow diagram' }).locator('svg').first()
  await expect(svg).toContainText('ended: abandoned')
  await expect(svg).toContainText('the run went on under session s2')
  await expect(svg).not.toContainText('run succeeded')
})

test('the operator runs: the failed migration ends with the run, the clear is named; the invoice run accounts for attempt 2 and the gap after the edit', async ({
  page,
}) => {
  await page.goto(links.run(runRef(DEMO_RUNS.operatorCleared)))
  const svg = page.getByRole('figure', { name: 'Resume flow diagram' }).locator('svg').first()
  await expect(svg).toContainText('ended: run failed')
  await expect(svg).toContainText('cleared: tombstone v6')
  await expect(svg).not.toContainText('ended: operator')
  // Drawn to fit its box: the last step is in view without panning.
  const figure = page.getByRole('figure', { name: 'Resume flow diagram' })
  await expect(figure.locator('[data-fits]')).toHaveText('The whole diagram fits the box.')
  const box = figure.getByRole('region', { name: 'Resume flow, scrollable' })
  const overflow = await box.evaluate((el) => ({
    h: el.scrollHeight - el.clientHeight,
    w: el.scrollWidth - el.clientWidth,
  }))
  expect(overflow.h).toBeLessThanOrEqual(1)
  expect(overflow.w).toBeLessThanOrEqual(1)

  await page.goto(links.run(runRef(DEMO_RUNS.operatorEdited)))
  const explainer = page.getByRole('region', { name: 'Resume explainer' })
  await expect(explainer).toContainText('attempt 2 (run.begin time not kept) wrote no checkpoint here')
  await expect(explainer).toContainText(/\d+m \d+s without a write \(the last: v12 by operator:alice\)/)
  await expect(explainer).not.toContainText('3h 39m')
  // One count of resumes: the header's "resumed 2×", the explainer's resume points (attempt 3's, and
  // attempt 2 that wrote nothing here) and the diagram's attempts; the operator's edit is listed apart.
  await expect(page.locator('.run-figures')).toContainText('resumed 2×')
  await expect(explainer.getByRole('heading', { name: /^Resume points/ })).toHaveText('Resume points 2')
  const points = explainer.getByRole('region', { name: /^Resume points/ }).locator('ol > li')
  await expect(points).toHaveCount(2)
  await expect(points.nth(1)).toContainText('Attempt 2 (run.begin time not kept) wrote no checkpoint here')
  await expect(explainer.getByRole('heading', { name: /^Operator actions/ })).toHaveText('Operator actions 1')
  await expect(explainer.getByRole('region', { name: /^Operator actions/ })).toContainText(
    'operator:alice edited the block',
  )
  await expect(svg).toContainText('run.begin attempt 3')
  await expect(svg).toContainText('attempt 2')
  await expect(svg).toContainText('wrote no checkpoint here')
})

test('a near miss caught while it happens: the callout says what happened and what is true now, and copies the missed checkpoint in as an audited write', async ({
  page,
  request,
}) => {
  const run = runRef(NEAR_MISS_NOW_RUN)
  const { firstSessionId: s1, sessionId: s2, userId, firstItems } = NEAR_MISS_NOW_RUN
  await page.goto(links.run(run, { tab: 'checkpoint' }))
  const warning = page.getByRole('alert', { name: 'Near miss' })
  await expect(warning).toContainText(
    new RegExp(
      `The process that resumed as session ${s2} at [0-9-]+ [0-9:]+ UTC started from nothing, though v${firstItems} under session ${s1} existed: 1 item redone\\.`,
    ),
  )
  await expect(warning).toContainText(`Today session ${s2} is at v1; session ${s1}'s latest is v${firstItems},`)
  // The diagram shows both sessions' work.
  await expect(page.getByRole('figure', { name: 'Resume flow diagram' })).toContainText(`under session ${s1}`)

  await warning.getByRole('button', { name: `Copy v${firstItems} here…` }).click()
  const dialog = page.getByRole('dialog', { name: `Copy v${firstItems} from session ${s1}` })
  await expect(dialog).toContainText(
    `Writes the content of v${firstItems} under session ${s1} as version 2 under session ${s2}`,
  )
  await expect(dialog.getByLabel('Reason (recorded in the audit log)')).toHaveValue(
    `Copy v${firstItems} from session ${s1} after a near miss`,
  )
  await dialog.getByRole('button', { name: 'Copy as v2' }).click()
  await expect(dialog).toBeHidden()

  // The block under s2 now holds s1's six items as v2: the next resume continues from item-006.
  const api = await (await request.get(links.api.block(run, 'checkpoint', userId, s2))).json()
  expect(api.block.version).toBe('2')
  expect(api.resume.value).toBe(Array.from({ length: firstItems }, (_, i) => `item-00${i + 1}`).join(' '))
  await page.goto(links.run(run, { tab: 'audit' }))
  const audit = page.getByRole('list', { name: 'Audit log' })
  await expect(audit.getByRole('listitem').first()).toContainText(
    `Copy v${firstItems} from session ${s1} after a near miss`,
  )
})

test('a near miss seen at once: a retry that has begun and written nothing yet names, on the timeline, the checkpoint it cannot see', async ({
  page,
}) => {
  const { firstSessionId: s1, firstItems } = NEAR_MISS_BEGUN_RUN
  await page.goto(links.run(runRef(NEAR_MISS_BEGUN_RUN), { tab: 'timeline' }))
  const list = page.getByRole('listbox', { name: /Timeline events/ })
  await expect(
    list.getByText(
      `resume · attempt 2 from nothing; v${firstItems} under session ${s1} existed (${firstItems} items done there); no checkpoint written yet`,
    ),
  ).toBeVisible()
})
