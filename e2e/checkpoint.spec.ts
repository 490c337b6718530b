import { expect, test, type Page } from '@playwright/test'
import { BATCH, DEMO_RUNS, NEAR_MISS } from '../lib/demo/scenarios'
import { links } from '../lib/links'

const [firstProcess, secondProcess] = BATCH.sourceTraces

async function setTheme(page: Page, theme: 'light' | 'dark') {
  const toggle = page.getByRole('button', { name: `Switch to ${theme} mode` })
  if (await toggle.isVisible()) await toggle.click()
  await expect(page.locator('html')).toHaveAttribute('data-theme', theme)
}

/** Full-page screenshot from the top, so the sticky top bar does not land mid-page. */
async function shot(page: Page, name: string) {
  await page.evaluate(() => window.scrollTo(0, 0))
  await page.screenshot({ path: `test-results/screens/checkpoint-${name}.png`, fullPage: true })
}

test.beforeEach(async ({ page }) => {
  await page.emulateMedia({ colorScheme: 'light' })
})

test('the batch run: why it resumed at v120, its 301 versions and what v121 added', async ({ page }) => {
  await page.goto(links.run(DEMO_RUNS.batch))
  await expect(page.getByRole('tab', { name: /Checkpoint/ })).toHaveAttribute('aria-selected', 'true')

  const explainer = page.getByRole('region', { name: 'Resume explainer' })
  await expect(explainer).toContainText('returns None (cleared by a tombstone at v301)')
  await expect(explainer).toContainText(
    new RegExp(
      `Process ${secondProcess} resumed at .* from v${BATCH.crashAfter} \\(${BATCH.crashAfter} items done\\); its first write v121 added item-121`,
    ),
  )
  await expect(explainer).toContainText(`new source_trace (was ${firstProcess})`)
  await expect(explainer.getByText('run.begin', { exact: true })).toBeVisible()

  const diagram = page.getByRole('figure', { name: 'Resume flow diagram' })
  await expect(diagram.locator('svg').first()).toBeVisible()
  await expect(diagram.locator('svg').first()).toContainText(secondProcess)

  const versions = page.getByRole('region', { name: 'Versions', exact: true })
  await expect(versions.getByText('301 versions')).toBeVisible()
  await expect(versions.getByText(/Physical rows are read without FINAL/)).toBeVisible()
  const newest = versions.locator('tr[data-version="301"]')
  await expect(newest.getByText('tombstone', { exact: true })).toBeVisible()
  await expect(newest.getByText('FINAL', { exact: true })).toBeVisible()
  // Virtualized: far fewer rows in the DOM than versions.
  expect(await versions.locator('tbody tr[data-version]').count()).toBeLessThan(100)
  await shot(page, 'batch-light')

  // Pick v121 as B through "jump to version", then v120 as A with its radio button.
  await versions.getByLabel('Version number').fill('121')
  await versions.getByRole('button', { name: 'Show' }).click()
  await expect(versions.getByRole('radio', { name: 'Compare to v121 (B)' })).toBeChecked()
  await versions.getByRole('radio', { name: 'Compare from v119 (A)' }).check()
  await expect(page).toHaveURL(/[?&]a=119/)
  await versions.getByRole('radio', { name: 'Compare from v120 (A)' }).check()
  await expect(page).toHaveURL(/[?&]a=120/)
  await expect(page).toHaveURL(/[?&]b=121/)

  const compare = page.getByRole('region', { name: 'Compare versions' })
  await expect(compare.getByText(/v120 → v121: added item-121/)).toBeVisible()
  const added = compare.getByRole('region', { name: 'Added ids' })
  await expect(added.getByText('item-121')).toBeVisible()
  await expect(compare.getByText('120 kept')).toBeVisible()
  await compare.screenshot({ path: 'test-results/screens/checkpoint-batch-diff.png' })
  await versions.screenshot({ path: 'test-results/screens/checkpoint-batch-versions.png' })

  await setTheme(page, 'dark')
  await expect(diagram.locator('svg').first()).toBeVisible()
  await shot(page, 'batch-dark')

  // The selection is a link: reloading keeps the comparison.
  await page.reload()
  await expect(
    page.getByRole('region', { name: 'Compare versions' }).getByText(/v120 → v121: added item-121/),
  ).toBeVisible()
})

test('the near-miss run warns that a checkpoint sits under session s1 and can switch to it', async ({ page }) => {
  await page.goto(links.run(DEMO_RUNS.nearMiss))
  const explainer = page.getByRole('region', { name: 'Resume explainer' })
  await expect(explainer).toContainText(
    `as user ${NEAR_MISS.userId} / session ${NEAR_MISS.secondSessionId} returns v100 (100 items done)`,
  )

  // What happened (the s2 process started from nothing while v40 existed under s1), then what is true today,
  // then what the operator can do about it.
  const warning = page.getByRole('alert', { name: 'Near miss' })
  await expect(warning).toContainText(
    new RegExp(
      `The process that resumed as session ${NEAR_MISS.secondSessionId} at [0-9-]+ [0-9:]+ UTC started from nothing, though v${NEAR_MISS.crashAfter} under session ${NEAR_MISS.firstSessionId} existed: ${NEAR_MISS.crashAfter} items redone\\.`,
    ),
  )
  await expect(warning).toContainText(
    `Today session ${NEAR_MISS.secondSessionId} is at v100; session ${NEAR_MISS.firstSessionId}'s latest is v${NEAR_MISS.crashAfter},`,
  )
  await expect(warning).toContainText(
    `Next step: to continue from v${NEAR_MISS.crashAfter} rather than start over, resume the agent as session ${NEAR_MISS.firstSessionId}, or copy v${NEAR_MISS.crashAfter} into session ${NEAR_MISS.secondSessionId} (an audited write).`,
  )
  // The diagram draws both identities: s1's checkpoint, dotted into the segment that started over.
  await expect(page.getByRole('figure', { name: 'Resume flow diagram' })).toContainText(
    `checkpoint v${NEAR_MISS.crashAfter}`,
  )
  await expect(page.getByRole('figure', { name: 'Resume flow diagram' })).toContainText('not seen by this resume')
  await expect(page.getByRole('figure', { name: 'Resume flow diagram' }).locator('svg').first()).toBeVisible()
  await shot(page, 'near-miss')

  await warning.getByRole('button', { name: `Show session ${NEAR_MISS.firstSessionId}` }).click()
  await expect(page).toHaveURL(new RegExp(`[?&]session=${NEAR_MISS.firstSessionId}`))
  await expect(explainer).toContainText(
    `session ${NEAR_MISS.firstSessionId} returns v${NEAR_MISS.crashAfter} (${NEAR_MISS.crashAfter} items done)`,
  )
  await expect(page.getByRole('alert', { name: 'Near miss' })).toContainText(
    `session ${NEAR_MISS.secondSessionId} has a checkpoint that a resume as session ${NEAR_MISS.firstSessionId} does not see. Today session ${NEAR_MISS.firstSessionId} is at v${NEAR_MISS.crashAfter};`,
  )
  await setTheme(page, 'dark')
  await shot(page, 'near-miss-s1-dark')

  await page.goBack()
  await expect(explainer).toContainText(`session ${NEAR_MISS.secondSessionId} returns v100`)
})

test('an operator-edited JSON checkpoint: structural diff of the edit', async ({ page }) => {
  await page.goto(links.run(DEMO_RUNS.operatorEdited))
  const explainer = page.getByRole('region', { name: 'Resume explainer' })
  await expect(explainer).toContainText('operator:alice edited the block')
  await explainer.getByRole('button', { name: 'Compare v11 → v12' }).click()
  const changes = page.getByRole('table', { name: 'JSON changes' })
  await expect(changes.getByRole('row', { name: /\$\.cursor/ })).toContainText('"inv-0411"')
  await expect(changes.getByRole('row', { name: /\$\.cursor/ })).toContainText('"inv-0412"')
  await expect(changes.getByRole('row', { name: /\$\.skipped\[0\]/ })).toContainText('added')
  await shot(page, 'operator-edit')
})

test('a text checkpoint shows a line diff; an unknown identity says resume finds nothing', async ({ page }) => {
  await page.goto(links.run(DEMO_RUNS.edgeCase))
  const compare = page.getByRole('region', { name: 'Compare versions' })
  const lines = compare.getByRole('table', { name: 'Line diff' })
  await expect(lines.getByRole('row').filter({ hasText: 'second line' })).toHaveAttribute('data-change', 'added')

  await page.goto(links.run(DEMO_RUNS.batch, { block: 'checkpoint', session: 'nobody' }))
  const explainer = page.getByRole('region', { name: 'Resume explainer' })
  await expect(explainer).toContainText('returns None: no checkpoint under this identity')
  await expect(page.getByRole('alert', { name: 'Near miss' })).toContainText(
    'session (unset) has a cleared checkpoint (tombstone) that a resume as session nobody does not see.',
  )
})
