import { expect, test, type APIRequestContext, type Locator, type Page } from '@playwright/test'
import type { RunSummary } from '../lib/api/types'
import { encodeSegment, links } from '../lib/links'
import { EDITABLE_RUN } from './fixtures'

/** A finished run with a live id-list checkpoint, written for this spec by scripts/e2e-prepare.ts. */
async function pickRun(request: APIRequestContext): Promise<RunSummary> {
  const body = await (await request.get(`/api/runs?org=${EDITABLE_RUN.org}&agent=${EDITABLE_RUN.agent}`)).json()
  const run = (body.runs as RunSummary[]).find((r) => r.runId === EDITABLE_RUN.runId)
  if (!run?.checkpoint) throw new Error('the editable fixture run is missing')
  return run
}

function blockApi(run: RunSummary) {
  const qs = new URLSearchParams()
  if (run.userId) qs.set('userId', run.userId)
  if (run.sessionId) qs.set('sessionId', run.sessionId)
  const base = `/api/runs/${[run.org, run.namespace, run.agent, run.runId].map(encodeSegment).join('/')}/blocks/checkpoint`
  return `${base}${qs.size ? `?${qs}` : ''}`
}

/** Screenshots at a wide and a phone width, light and dark (the theme the toggle would set). */
async function shots(page: Page, name: string, target?: Locator) {
  for (const width of [1400, 390]) {
    for (const theme of ['light', 'dark']) {
      await page.setViewportSize({ width, height: 900 })
      await page.evaluate((t) => document.documentElement.setAttribute('data-theme', t), theme)
      await target?.scrollIntoViewIfNeeded()
      await page.screenshot({ path: `test-results/screens/${name}-${width}-${theme}.png` })
    }
  }
  await page.setViewportSize({ width: 1400, height: 900 })
  await page.evaluate(() => document.documentElement.setAttribute('data-theme', 'light'))
}

test('edit in the browser, meet a conflict, re-apply on top, clear, restore', async ({ page, request }) => {
  const run = await pickRun(request)
  const start = BigInt(run.checkpoint!.version)
  expect(run.checkpoint!.version).toBe('3')
  const v = (n: number) => `${start + BigInt(n)}`
  await page.goto(links.run(run, { tab: 'checkpoint' }))

  // 1. A plain edit.
  await page.getByRole('button', { name: 'Edit', exact: true }).click()
  const dialog = page.getByRole('dialog', { name: 'Edit checkpoint' })
  await expect(dialog).toBeVisible()
  await dialog.getByLabel('New content').fill('e2e-item-001 e2e-item-002')
  await expect(dialog.getByRole('button', { name: `Save as v${v(1)}` })).toBeDisabled()
  await dialog.getByLabel('Reason (recorded in the audit log)').fill('e2e: reset to two items')
  await expect(dialog.getByLabel('Diff preview')).toContainText('e2e-item-001')
  // As the operator types, what resuming from the draft makes the agent redo: the three tickets v3 holds.
  await expect(dialog.getByRole('note', { name: 'What the agent will redo' })).toHaveText(
    `Resuming from this edit, the agent will redo 3 units that v3 holds (ticket-001, ticket-002, ticket-003).`,
  )
  await dialog.getByRole('button', { name: `Save as v${v(1)}` }).click()
  await expect(dialog).toBeHidden()
  await expect(page.getByText(`Saved checkpoint as version ${v(1)}`)).toBeVisible()
  let api = await (await request.get(blockApi(run))).json()
  expect(api.resume.value).toBe('e2e-item-001 e2e-item-002')
  expect(api.block.actor).toBe('operator:local')

  // 2. Someone else writes while the operator is editing: 409, then re-apply on top. (The editor
  // reads the block again on opening: wait for that, so the write below lands after it.)
  const reread = page.waitForResponse(
    (r) => r.request().method() === 'GET' && new URL(r.url()).pathname.endsWith('/blocks/checkpoint'),
  )
  await page.getByRole('button', { name: 'Edit', exact: true }).click()
  await reread
  await dialog.getByLabel('New content').fill('e2e-item-001 e2e-item-002 e2e-item-003')
  await dialog.getByLabel('Reason (recorded in the audit log)').fill('e2e: add item 3')
  const moved = await request.put(blockApi(run), {
    headers: { 'content-type': 'application/json' },
    data: { content: 'moved underneath', expectedVersion: v(1), reason: 'concurrent writer' },
  })
  expect(moved.status()).toBe(200)
  await dialog.getByRole('button', { name: `Save as v${v(2)}` }).click()
  const conflict = dialog.getByRole('alert')
  await expect(conflict).toContainText(`the latest is ${v(2)}`)
  await expect(conflict.getByLabel('Changes since you started')).toContainText('moved underneath')
  // After the 409 the editor no longer offers to save onto the old version.
  await expect(dialog.getByRole('button', { name: `Save as v${v(2)}` })).toBeDisabled()
  await expect(dialog.getByText(`Cannot save: v${v(1)} is no longer the latest (v${v(2)} is)`)).toBeVisible()
  await conflict.getByRole('button', { name: `Re-apply my edit on top of v${v(2)}` }).click()
  // The concurrent writer replaced the line this edit changed: a conflict, nothing saved until it is resolved.
  const line = dialog.getByRole('region', { name: 'Merge' }).getByRole('group', { name: 'line 1' })
  await expect(line).toContainText('moved underneath')
  await expect(dialog.getByRole('button', { name: `Save as v${v(3)}` })).toBeDisabled()
  await line.getByRole('radio', { name: 'Keep mine' }).check()
  await expect(dialog.getByLabel('Merged content')).toHaveValue('e2e-item-001 e2e-item-002 e2e-item-003')
  await dialog.getByRole('button', { name: `Save as v${v(3)}` }).click()
  await expect(dialog).toBeHidden()
  api = await (await request.get(blockApi(run))).json()
  expect(api.block.version).toBe(v(3))
  expect(api.resume.value).toBe('e2e-item-001 e2e-item-002 e2e-item-003')

  // 3. Clear, confirmed by typing the run id.
  await page.getByRole('button', { name: 'Clear', exact: true }).click()
  const clear = page.getByRole('dialog', { name: 'Clear checkpoint' })
  const confirm = clear.getByRole('button', { name: 'Clear checkpoint' })
  // Before confirming: what a clear makes the agent redo, and what the run wrote after its first write (as the API counts it).
  const clearReplay = await (await request.get(blockApi(run).replace('/checkpoint', '/checkpoint/replay'))).json()
  const foresight = clear.getByRole('region', { name: 'What the agent will redo' })
  await expect(foresight).toContainText('The agent will redo 3 units (e2e-item-001, e2e-item-002, e2e-item-003).')
  await expect(foresight).toContainText(`this run wrote ${clearReplay.after.checkpointWrites} checkpoint versions`)
  expect(clearReplay.after.checkpointWrites).toBeGreaterThanOrEqual(3)
  // The confirm button says, in visible text, what it still needs.
  await expect(confirm).toBeDisabled()
  await expect(clear.getByText('To clear: type the run_id above and give a reason.')).toBeVisible()
  await shots(page, 'clear-dialog')
  await expect(confirm).toHaveAccessibleDescription('To clear: type the run_id above and give a reason.')
  await clear.getByLabel(/Type the run_id to confirm/).fill(run.runId.slice(0, -1))
  await expect(clear.getByText('To clear: the typed run_id does not match yet and give a reason.')).toBeVisible()
  await clear.getByLabel(/Type the run_id to confirm/).fill(run.runId)
  await expect(clear.getByText('To clear: give a reason.')).toBeVisible()
  await expect(confirm).toBeDisabled()
  await clear.getByLabel('Reason (recorded in the audit log)').fill('e2e: start over')
  await expect(clear.getByText('Ready to clear.')).toBeVisible()
  await confirm.click()
  await expect(clear).toBeHidden()
  api = await (await request.get(blockApi(run))).json()
  expect(api.block.isDeleted).toBe(true)
  expect(api.resume.value).toBeNull()

  // After the clear, B is the tombstone: Restore and Clear are off, and say why next to them.
  const restoreOff = page.getByRole('button', { name: 'Restore…' })
  await expect(restoreOff).toBeDisabled()
  const why = `Restore is off: B is v${v(4)}, a tombstone. Pick an earlier version as B in the Versions table to put it back.`
  await expect(page.getByText(why)).toBeVisible()
  await expect(restoreOff).toHaveAccessibleDescription(why)
  await expect(page.getByRole('button', { name: 'Clear', exact: true })).toHaveAccessibleDescription(
    `Clear is off: the block is already cleared (v${v(4)} is a tombstone).`,
  )
  await shots(page, 'restore-off', page.getByText(why))

  // 4. Restore the first edit from the version table.
  await page.getByRole('radio', { name: `Compare to v${v(1)} (B)` }).check()
  await expect(page.getByText(why)).toBeHidden()
  await page.getByRole('button', { name: `Restore v${v(1)}` }).click()
  const restore = page.getByRole('dialog', { name: `Restore v${v(1)}` })
  // From a tombstone, going back to v1 redoes nothing; the run wrote v2 to v4 after it.
  const restoreForesight = restore.getByRole('region', { name: 'What the agent will redo' })
  await expect(restoreForesight).toContainText(`The agent redoes no unit: v${v(4)} holds none that v${v(1)} lacks.`)
  await expect(restoreForesight).toContainText(`After v${v(1)} (`)
  await expect(restoreForesight).toContainText('this run wrote 3 checkpoint versions.')
  await expect(restoreForesight).toContainText(`The block is cleared now (v${v(4)} is a tombstone)`)
  await restore.getByLabel('Reason (recorded in the audit log)').fill('e2e: back to the two items')
  await restore.getByRole('button', { name: `Restore v${v(1)}` }).click()
  await expect(restore).toBeHidden()
  api = await (await request.get(blockApi(run))).json()
  expect(api.block.version).toBe(v(5))
  expect(api.resume.value).toBe('e2e-item-001 e2e-item-002')

  // The audit tab lists the five console writes (the concurrent one included), newest first.
  await page.goto(links.run(run, { tab: 'audit' }))
  const audit = page.getByRole('list', { name: 'Audit log' })
  await expect(audit.getByRole('listitem')).toHaveCount(5)
  await expect(audit.getByRole('listitem').first()).toContainText(
    `checkpoint: restore v${v(1)} as v${v(5)} (replacing v${v(4)})`,
  )
  await page.screenshot({ path: 'test-results/screens/editor-audit.png', fullPage: true })

  // 5. A stale page: the block moved after the page loaded. The editor says so on opening, before any 409.
  await page.goto(links.run(run, { tab: 'checkpoint' }))
  await expect(page.getByRole('button', { name: 'Edit', exact: true })).toBeEnabled()
  const behind = await request.put(blockApi(run), {
    headers: { 'content-type': 'application/json' },
    data: { content: 'written while the page was open', expectedVersion: v(5), reason: 'another operator' },
  })
  expect(behind.status()).toBe(200)
  await page.getByRole('button', { name: 'Edit', exact: true }).click()
  const stale = dialog.getByRole('alert')
  await expect(stale).toContainText(`moved on since you started from v${v(5)}: v${v(6)} is the latest now`)
  await expect(dialog.getByRole('button', { name: `Save as v${v(6)}` })).toBeDisabled()
  await stale.getByRole('button', { name: `Discard my edit and start from v${v(6)}` }).click()
  await expect(dialog.getByText(`Starting from v${v(6)}`)).toBeVisible()
  await expect(dialog.getByRole('alert')).toBeHidden()
  await dialog.getByRole('button', { name: 'Cancel' }).click()
})
