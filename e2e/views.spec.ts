import AxeBuilder from '@axe-core/playwright'
import { expect, test, type Page } from '@playwright/test'
import { gotoHydrated, hydrated } from './hydrated'

async function noSeriousAxe(page: Page, where: string) {
  const r = await new AxeBuilder({ page })
    .include(where)
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
    .analyze()
  const bad = r.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.nodes[0]?.target.join(' ')}`)
  expect(bad, bad.join('; ')).toEqual([])
}

test('save the current filter as a view, open it by its link, rename it, an alert to a host not allowed is refused, delete it', async ({
  page,
  request,
}) => {
  await gotoHydrated(page, '/?status=failed&flag=crash_loop')
  const panel = page.getByTestId('saved-views')
  // By keyboard: the panel opens with Enter on its summary.
  await panel.locator('summary').focus()
  await page.keyboard.press('Enter')
  await panel.getByRole('button', { name: 'Save current filter as a view…' }).click()
  const dialog = page.getByRole('dialog', { name: 'Save the current filter as a view' })
  await expect(dialog).toContainText('Filter: status=failed, flag=crash_loop')
  const save = dialog.getByRole('button', { name: 'Save view' })
  await expect(save).toBeDisabled()
  await dialog.getByLabel('Name').fill('Failed crash loops')
  for (const theme of ['light', 'dark']) {
    for (const width of [1400, 390]) {
      await page.setViewportSize({ width, height: 900 })
      await page.evaluate((t) => document.documentElement.setAttribute('data-theme', t), theme)
      await page.screenshot({ path: test.info().outputPath(`view-dialog-${width}-${theme}.png`) })
    }
    await noSeriousAxe(page, 'dialog[open]')
  }
  await page.setViewportSize({ width: 1400, height: 900 })
  await save.click()
  await expect(dialog).toHaveCount(0)

  const { views } = await (await request.get('/api/views')).json()
  const view = views.find((v: { name: string }) => v.name === 'Failed crash loops')
  expect(view.filter).toEqual({ status: 'failed', flag: ['crash_loop'] })
  const link = panel.getByRole('link', { name: 'Failed crash loops' })
  await expect(link).toHaveAttribute('href', `/?view=${view.id}`)

  // Its link opens the runs page with its filter (from anywhere).
  await page.goto(`/?view=${view.id}`)
  await expect(page).toHaveURL(new RegExp(`/\\?status=failed&flag=crash_loop&view=${view.id}$`))
  await expect(page.getByTestId('saved-views')).toContainText('showing Failed crash loops')
  await expect(page.getByLabel('Status')).toHaveValue('failed')

  // Rename; an alert to a webhook host the console does not allow is refused, naming the field; nothing changes.
  await hydrated(page)
  await page.getByTestId('saved-views').getByRole('button', { name: 'Edit view Failed crash loops' }).click()
  const edit = page.getByRole('dialog', { name: 'Edit view Failed crash loops' })
  await edit.getByLabel('Name').fill('Crash loops that failed')
  await edit.getByLabel('Alert a webhook when this view matches enough runs').check()
  await edit.getByLabel(/Webhook URL/).fill('https://hooks.example.com/loom')
  await edit.getByRole('button', { name: 'Save view' }).click()
  await expect(edit).toContainText('alert.webhook cannot be set: no webhook host is allowed on this console')
  await edit.getByLabel('Alert a webhook when this view matches enough runs').uncheck()
  await edit.getByRole('button', { name: 'Save view' }).click()
  await expect(edit).toHaveCount(0)
  await expect(page.getByTestId('saved-views').getByRole('link', { name: 'Crash loops that failed' })).toBeVisible()
  const renamed = await (await request.get(`/api/views/${view.id}`)).json()
  expect([renamed.view.name, renamed.view.alert]).toEqual(['Crash loops that failed', null])

  // Delete, after a second confirmation.
  await page.getByTestId('saved-views').getByRole('button', { name: 'Edit view Crash loops that failed' }).click()
  const del = page.getByRole('dialog', { name: 'Edit view Crash loops that failed' })
  await del.getByRole('button', { name: 'Delete…' }).click()
  await del.getByRole('button', { name: 'Delete “Crash loops that failed”' }).click()
  await expect(del).toHaveCount(0)
  expect((await request.get(`/api/views/${view.id}`)).status()).toBe(404)
  await expect(page.getByTestId('saved-views')).toContainText('No saved views yet')
})
