import { expect, test, type Page } from '@playwright/test'
import { DEMO_RUNS } from '../lib/demo/scenarios'
import { links } from '../lib/links'
import { RUN_TABS } from '../lib/api-client/tab-names'
import { RICH_RUN } from './page-list'
import { screensAtWidths } from './screens'
import { hydrated } from './hydrated'

/** Waits until the run page has hydrated: the tab strip measures itself only in the browser. */
async function runPageReady(page: Page) {
  await expect(page.locator('.tabs-strip[data-more]')).toHaveCount(1)
}

/** Opens the near-miss run's Checkpoint tab and the write dialog of `action`; returns its button and the dialog. */
async function openWriteDialog(page: Page, action: 'Edit' | 'Clear') {
  // The near-miss run's checkpoint is a live list of item ids.
  await page.goto(links.run(DEMO_RUNS.nearMiss, { tab: 'checkpoint' }))
  await runPageReady(page)
  const button = page.getByRole('button', { name: action, exact: true })
  await button.click()
  const dialog = page.getByRole('dialog', { name: new RegExp(`^${action} `) })
  await expect(dialog).toBeVisible()
  return { button, dialog }
}

/** How many presses of Tab it takes to get from the focused element to `target` (gives up after `max`). */
async function tabsUntil(page: Page, target: import('@playwright/test').Locator, max: number) {
  for (let n = 1; n <= max; n++) {
    await page.keyboard.press('Tab')
    if (await target.evaluate((el) => el === document.activeElement)) return n
  }
  return Infinity
}

test('Home and End move to the first and the last tab', async ({ page }) => {
  await page.goto(links.run(RICH_RUN, { tab: 'timeline' }))
  await runPageReady(page)
  const tab = (name: RegExp) => page.getByRole('tab', { name })
  await tab(/^Timeline/).focus()
  await page.keyboard.press('End')
  await expect(tab(/^Audit/)).toBeFocused()
  await expect(tab(/^Audit/)).toHaveAttribute('aria-selected', 'true')
  await expect(page).toHaveURL(/tab=audit/)
  await page.keyboard.press('Home')
  await expect(tab(/^Checkpoint/)).toBeFocused()
  await expect(tab(/^Checkpoint/)).toHaveAttribute('aria-selected', 'true')
  // The default tab leaves the URL bare.
  await expect(page).not.toHaveURL(/tab=/)
  // Arrows still wrap around.
  await page.keyboard.press('ArrowLeft')
  await expect(tab(/^Audit/)).toBeFocused()
  expect(await page.getByRole('tab').count()).toBe(RUN_TABS.length)
})

test('the edit dialog opens on its first field, the id list is one tab stop, and focus returns to Edit', async ({
  page,
}) => {
  const { button: edit, dialog } = await openWriteDialog(page, 'Edit')
  const content = dialog.getByLabel('New content')
  await expect(content).toBeFocused()

  // Hundreds of items, one stop for the Tab key: from the content to the reason in a few presses.
  const items = dialog.getByRole('toolbar', { name: 'Items in the checkpoint' })
  const removeButtons = items.getByRole('button', { name: /^Remove / })
  const before = await removeButtons.count()
  expect(before).toBeGreaterThanOrEqual(40)
  const reason = dialog.getByLabel('Reason (recorded in the audit log)')
  expect(await tabsUntil(page, reason, 12)).toBeLessThanOrEqual(8)

  // Inside the list: arrows and End move, Delete removes the item in focus.
  await removeButtons.first().focus()
  await page.keyboard.press('ArrowRight')
  await expect(removeButtons.nth(1)).toBeFocused()
  await page.keyboard.press('End')
  await expect(removeButtons.last()).toBeFocused()
  const lastName = await removeButtons.last().getAttribute('aria-label')
  await page.keyboard.press('Delete')
  await expect(removeButtons).toHaveCount(before - 1)
  await expect(items.getByRole('button', { name: lastName! })).toHaveCount(0)
  await expect(removeButtons.last()).toBeFocused()
  await expect(items.locator('[tabindex="0"]')).toHaveCount(1)

  await screensAtWidths(page, 'keyboard-edit-dialog')
  await page.keyboard.press('Escape')
  await expect(dialog).toBeHidden()
  await expect(edit).toBeFocused()
})

test('the clear dialog opens on the run_id field and gives focus back to Clear on Cancel', async ({ page }) => {
  const { button: clear, dialog } = await openWriteDialog(page, 'Clear')
  await expect(dialog.getByLabel(/Type the run_id to confirm/)).toBeFocused()
  await dialog.getByRole('button', { name: 'Cancel' }).click()
  await expect(dialog).toBeHidden()
  await expect(clear).toBeFocused()
})

test('Escape closes the timeline payload and focus goes back to the list', async ({ page }) => {
  await page.goto(links.run(DEMO_RUNS.batch, { tab: 'timeline' }))
  await runPageReady(page)
  const list = page.getByRole('listbox', { name: /Timeline events/ })
  // The tab strip can be ready in the loading fallback while the list's part is still hydrating.
  await hydrated(page, list)
  await list.focus()
  await page.keyboard.press('Enter')
  await expect(page).toHaveURL(/event=/)
  const payload = page.getByRole('complementary')
  await expect(payload).toBeVisible()
  // Enter again moves into the panel; Escape from there closes it.
  await page.keyboard.press('Enter')
  await expect(payload.getByRole('heading', { level: 3 })).toBeFocused()
  await page.keyboard.press('Escape')
  await expect(payload).toBeHidden()
  await expect(page).not.toHaveURL(/event=/)
  await expect(list).toBeFocused()
  // From the list itself too.
  await page.keyboard.press('ArrowDown')
  await expect(payload).toBeVisible()
  await page.keyboard.press('Escape')
  await expect(payload).toBeHidden()
})

test('the runs page charts are labelled images with a summary in words', async ({ page }) => {
  await page.goto(links.runs())
  for (const name of [
    /^Runs per (hour|day) of their start time/,
    /^Runs resumed per day/,
    /^Runs by the size of their latest checkpoint/,
  ]) {
    const chart = page.getByRole('img', { name })
    // The summary's charts load after the table.
    await expect(chart).toBeVisible({ timeout: 45_000 })
    await expect(chart).toHaveAccessibleDescription(/\d/)
  }
  await expect(page.getByRole('img', { name: /^Runs per (hour|day)/ })).toHaveAccessibleDescription(
    /\d+ runs over \d+ (hours|days): \d+ succeeded/,
  )
})
