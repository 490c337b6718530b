import { expect, test, type APIRequestContext, type Locator, type Page } from '@playwright/test'
import { encodeSegment, links } from '../lib/links'
import { MERGE_RUN } from './fixtures'

type State = { cursor: string; processed: number; skipped: string[]; options: { currency: string; dry_run: boolean } }

const blockApi = `/api/runs/${[MERGE_RUN.org, MERGE_RUN.namespace, MERGE_RUN.agent, MERGE_RUN.runId].map(encodeSegment).join('/')}/blocks/checkpoint`

async function readBack(request: APIRequestContext): Promise<{ version: string; state: State; actor: string }> {
  const body = await (await request.get(blockApi)).json()
  return { version: body.block.version, state: JSON.parse(body.block.content) as State, actor: body.block.actor }
}

/** The theme toggle sits behind the modal; set the theme it would set. */
async function setTheme(page: Page, theme: 'light' | 'dark') {
  await page.evaluate((t) => document.documentElement.setAttribute('data-theme', t), theme)
  await expect(page.locator('html')).toHaveAttribute('data-theme', theme)
}

/** Opens the run's checkpoint editor in a tab; the dialog starts from the version on screen. */
async function openEditor(page: Page, version: string): Promise<Locator> {
  await page.goto(links.run(MERGE_RUN, { tab: 'checkpoint' }))
  await expect(page.getByRole('region', { name: 'Resume explainer' })).toContainText(`v${version}`)
  await page.getByRole('button', { name: 'Edit', exact: true }).click()
  const dialog = page.getByRole('dialog', { name: 'Edit checkpoint' })
  await expect(dialog).toContainText(`Starting from v${version}`)
  return dialog
}

async function edit(dialog: Locator, state: State, reason: string) {
  await dialog.getByLabel('New content').fill(JSON.stringify(state))
  await dialog.getByLabel('Reason (recorded in the audit log)').fill(reason)
}

test('two tabs edit one JSON checkpoint: re-apply merges both changes, and overlapping ones are resolved before saving', async ({
  page,
  context,
  request,
}) => {
  await page.emulateMedia({ colorScheme: 'light' })
  const start = await readBack(request)
  expect(start.version).toBe('3')
  expect(start.state).toEqual(MERGE_RUN.state)
  const base = start.state

  // Both tabs open the editor on v3.
  const tab1 = page
  const tab2 = await context.newPage()
  const editor1 = await openEditor(tab1, '3')
  const editor2 = await openEditor(tab2, '3')

  // Tab 1 moves the cursor and saves v4.
  await edit(editor1, { ...base, cursor: 'inv-0421' }, 'e2e tab 1: cursor past inv-0420')
  await editor1.getByRole('button', { name: 'Save as v4' }).click()
  await expect(editor1).toBeHidden()

  // Tab 2 changes `processed` from v3: refused, then re-applied on top of v4.
  await edit(editor2, { ...base, processed: 21 }, 'e2e tab 2: count inv-0420 as processed')
  await editor2.getByRole('button', { name: 'Save as v4' }).click()
  const conflict = editor2.getByRole('alert')
  await expect(conflict).toContainText('the latest is 4')
  await conflict.getByRole('button', { name: 'Re-apply my edit on top of v4' }).click()

  const merge = editor2.getByRole('region', { name: 'Merge' })
  await expect(merge).toBeFocused()
  await expect(merge).toContainText('Your edit of v3, merged onto v4')
  await expect(merge).toContainText('The changes do not overlap')
  // The preview is the merged content against v4: only tab 2's change, tab 1's cursor is not undone.
  const preview = editor2.getByLabel('Diff preview')
  await expect(preview).toContainText('changed $.processed')
  await expect(preview).not.toContainText('$.cursor')
  await expect(editor2.getByLabel('Merged content')).toHaveValue(
    JSON.stringify({ ...base, cursor: 'inv-0421', processed: 21 }),
  )
  await editor2.getByRole('button', { name: 'Save as v5' }).click()
  await expect(editor2).toBeHidden()

  let saved = await readBack(request)
  expect(saved.version).toBe('5')
  expect(saved.state).toEqual({ ...base, cursor: 'inv-0421', processed: 21 })

  // Overlap: both tabs start from v5 and set the cursor; tab 2 also skips an invoice.
  const v5 = saved.state
  const again1 = await openEditor(tab1, '5')
  const again2 = await openEditor(tab2, '5')
  await edit(
    again1,
    { ...v5, cursor: 'inv-0430', options: { ...v5.options, dry_run: true } },
    'e2e tab 1: jump to inv-0430, dry run',
  )
  await again1.getByRole('button', { name: 'Save as v6' }).click()
  await expect(again1).toBeHidden()

  await edit(again2, { ...v5, cursor: 'inv-0425', skipped: [...v5.skipped, 'inv-0424'] }, 'e2e tab 2: skip inv-0424')
  await again2.getByRole('button', { name: 'Save as v6' }).click()
  await again2.getByRole('alert').getByRole('button', { name: 'Re-apply my edit on top of v6' }).click()

  const merge2 = again2.getByRole('region', { name: 'Merge' })
  const cursor = merge2.getByRole('group', { name: '$.cursor' })
  await expect(merge2.getByRole('list', { name: 'Conflicts' }).getByRole('listitem')).toHaveCount(1)
  await expect(cursor).toContainText('"inv-0425"')
  await expect(cursor).toContainText('"inv-0430"')
  await expect(merge2).toContainText('1 of 1 conflict to resolve')
  const save = again2.getByRole('button', { name: 'Save as v7' })
  await expect(save).toBeDisabled()
  await expect(again2).toContainText('Cannot save: 1 conflict to resolve (keep mine or keep theirs, or edit by hand)')
  await expect(again2.getByLabel('Merged content')).not.toBeEditable()

  for (const width of [1400, 390]) {
    for (const theme of ['light', 'dark'] as const) {
      await tab2.setViewportSize({ width, height: 900 })
      await setTheme(tab2, theme)
      await merge2.scrollIntoViewIfNeeded()
      await tab2.screenshot({ path: `test-results/screens/merge-conflict-${width}-${theme}.png` })
    }
  }
  await tab2.setViewportSize({ width: 1400, height: 900 })

  // Editing by hand unlocks the content (theirs fills the open conflict) and lifts the block on Save; back to the choices locks it again.
  await merge2.getByRole('button', { name: 'Edit by hand' }).click()
  await expect(again2.getByLabel('Merged content')).toBeEditable()
  await expect(merge2).toContainText('Editing by hand: 1 conflict for reference')
  await expect(cursor.getByRole('radio', { name: 'Keep mine' })).toBeDisabled()
  await expect(save).toBeEnabled()
  await merge2.getByRole('button', { name: 'Back to the choices (drops hand edits)' }).click()
  await expect(again2.getByLabel('Merged content')).not.toBeEditable()
  await expect(save).toBeDisabled()

  // Keyboard: the choice is a radio group per conflict.
  await cursor.getByRole('radio', { name: 'Keep mine' }).focus()
  await tab2.keyboard.press('Space')
  await expect(cursor.getByRole('radio', { name: 'Keep mine' })).toBeChecked()
  await expect(merge2).toContainText('Conflicts resolved: 1 of 1')
  await expect(again2.getByLabel('Diff preview')).toContainText('$.cursor')
  await expect(again2.getByLabel('Diff preview')).not.toContainText('$.options')
  await expect(save).toBeEnabled()
  await save.click()
  await expect(again2).toBeHidden()

  saved = await readBack(request)
  expect(saved.version).toBe('7')
  expect(saved.actor).toBe('operator:local')
  // Mine for the conflict, both tabs' other changes kept.
  expect(saved.state).toEqual({
    cursor: 'inv-0425',
    processed: 21,
    skipped: ['inv-0412', 'inv-0424'],
    options: { currency: 'EUR', dry_run: true },
  })
})
