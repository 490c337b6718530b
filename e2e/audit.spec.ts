import { expect, test } from '@playwright/test'
import { screensAtWidths } from './screens'

type Entry = {
  operator: string
  action: string
  runId: string
  beforeVersion: string
  afterVersion: string
  href: string
  reason: string
}
type AuditPage = { entries: Entry[]; nextCursor: string | null; installed: boolean }

test('the Audit page lists every console write, filters from the URL and links each entry to its run', async ({
  page,
  request,
}) => {
  // The demo's operator made two writes from the console: an edit and a clear.
  const res = await request.get('/api/audit?operator=alice')
  expect(res.status()).toBe(200)
  const alice = (await res.json()) as AuditPage
  expect(alice.entries.map((e) => e.action).sort()).toEqual(['clear', 'edit'])
  const edit = alice.entries.find((e) => e.action === 'edit')!
  const clear = alice.entries.find((e) => e.action === 'clear')!

  await page.goto('/audit?operator=alice')
  await expect(page).toHaveTitle('Audit · Loom Runs')
  const list = page.getByRole('list', { name: 'Audit entries' })
  await expect(list.getByRole('listitem')).toHaveCount(2)
  const editRow = list.getByRole('listitem').filter({ hasText: edit.runId })
  await expect(editRow).toContainText(`edit v${edit.beforeVersion} → v${edit.afterVersion}`)
  await expect(editRow).toContainText(edit.reason)
  const clearRow = list.getByRole('listitem').filter({ hasText: clear.runId })
  await expect(clearRow).toContainText(`clear v${clear.beforeVersion} with tombstone v${clear.afterVersion}`)
  // Each entry opens its run's own Audit tab.
  expect(await editRow.getByRole('link', { name: new RegExp(`${edit.runId}$`) }).getAttribute('href')).toBe(edit.href)
  expect(edit.href).toMatch(/\?tab=audit$/)
  await screensAtWidths(page, 'audit-page', { fullPage: true })

  // The form writes its filters into the URL, and the list follows them.
  const form = page.getByRole('search', { name: 'Filter the audit log' })
  await form.getByLabel('Action').selectOption('clear')
  await form.getByRole('button', { name: 'Apply' }).click()
  await expect(page).toHaveURL(/action=clear/)
  await expect(page).toHaveURL(/operator=alice/)
  await expect(list.getByRole('listitem')).toHaveCount(1)
  await expect(list.getByRole('listitem')).toContainText(clear.runId)

  // A filter nothing matches says so; "Clear filters" brings every entry back.
  await form.getByLabel('Operator').fill('nobody-by-this-name')
  await form.getByRole('button', { name: 'Apply' }).click()
  await expect(page.getByTestId('audit-empty')).toContainText('No console write matches these filters.')
  await page.getByRole('button', { name: 'Clear filters' }).click()
  await expect(page).toHaveURL(/\/audit$/)
  await expect(list.getByRole('listitem').filter({ hasText: edit.runId }).first()).toBeVisible()

  // Following an entry lands on the run's Audit tab.
  await page.goto('/audit?operator=alice&action=edit')
  await list.getByRole('link', { name: new RegExp(`${edit.runId}$`) }).click()
  await expect(page).toHaveURL(new RegExp(`/runs/.*/${edit.runId}\\?tab=audit$`))
  await expect(page.getByRole('tab', { name: /Audit/, selected: true })).toBeVisible()
})

test('the Audit page is reachable from the header and says when a filter is malformed', async ({ page }) => {
  await page.goto('/')
  await page.getByRole('navigation').getByRole('link', { name: 'Audit', exact: true }).click()
  await expect(page).toHaveURL(/\/audit$/)
  await expect(page.getByRole('heading', { name: 'Audit', level: 1 })).toBeVisible()
  // A cursor that was not made by the server is refused with the field named, not a blank page.
  await page.goto('/audit?cursor=not-a-cursor')
  await expect(page.getByRole('alert').filter({ hasText: 'Could not load' })).toContainText(
    'cursor is not a cursor issued by this server',
  )
})
