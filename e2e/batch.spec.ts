import AxeBuilder from '@axe-core/playwright'
import { expect, test, type Page } from '@playwright/test'
import { encodeSegment } from '../lib/links'
import { BATCH_RUNS } from './batch-fixtures'

const { org, namespace, agent, runIds } = BATCH_RUNS

function blockApi(runId: string) {
  return `/api/runs/${[org, namespace, agent, runId].map(encodeSegment).join('/')}/blocks/checkpoint`
}

/** A phone and a wide screen, light and dark, of the open dialog. */
async function shots(page: Page, name: string) {
  for (const width of [1400, 390]) {
    for (const theme of ['light', 'dark']) {
      await page.setViewportSize({ width, height: 900 })
      await page.evaluate((t) => document.documentElement.setAttribute('data-theme', t), theme)
      await page.screenshot({ path: test.info().outputPath(`${name}-${width}-${theme}.png`) })
    }
  }
  await page.setViewportSize({ width: 1400, height: 900 })
  await page.evaluate(() => document.documentElement.setAttribute('data-theme', 'light'))
}

test('batch clear from the filtered runs list: preview, reason, typed count, results with links, retry of a conflict', async ({
  page,
  request,
}) => {
  // A whole batch cycle (preview, run, conflict retry, audit, undo preview) with screenshots of each
  // state at two widths and in both themes: 35-45 s alone on 2 cores, past 60 s when the machine is busy.
  test.slow()
  // Real traffic stays on loopback.
  await page.route(/^https?:\/\/(?!127\.0\.0\.1[:/])/, (route) => route.abort())
  await page.goto(`/?org=${org}&namespace=${namespace}`)
  await expect(page.getByText(runIds[0], { exact: true }).first()).toBeVisible()

  // 1. Preview: every filtered run, from its latest version to a tombstone.
  await page.getByRole('button', { name: 'Clear checkpoints…' }).click()
  const dialog = page.getByRole('dialog', { name: 'Clear checkpoints' })
  await expect(dialog).toBeVisible()
  const preview = dialog.getByRole('region', { name: 'Preview of the batch' })
  await expect(preview.getByRole('row')).toHaveCount(runIds.length + 1)
  for (const id of runIds) await expect(preview.getByRole('link', { name: id, exact: true })).toBeVisible()
  await expect(preview).toContainText('v2 → tombstone')
  // Each row says the run's status and what the clear replaces, with the version one click away.
  const previewRow = (id: string) =>
    preview.getByRole('row').filter({ has: page.getByRole('link', { name: id, exact: true }) })
  await expect(previewRow(runIds[0])).toContainText('failed')
  await expect(previewRow(runIds[0])).toContainText(`v2 live by ${agent}`)
  // And what the clear makes the agent redo, with what the run wrote after the point it goes back to.
  await expect(previewRow(runIds[0]).getByTestId('batch-foresight')).toHaveText(
    'redoes 2 units (row-001, row-002); after its first write: 1 checkpoint version',
  )
  const diff = previewRow(runIds[0]).getByRole('link', { name: new RegExp(`^Open v2 → tombstone of ${runIds[0]}`) })
  expect(await diff.getAttribute('href')).toBe(
    `/runs/${[org, namespace, agent, runIds[0]].map(encodeSegment).join('/')}?tab=checkpoint&block=checkpoint&a=2`,
  )
  await expect(dialog.getByRole('status').first()).toContainText(`${runIds.length} runs matched`)
  await shots(page, 'batch-preview')

  // 2. Another writer moves one run on after the preview.
  const moved = await request.put(blockApi(runIds[1]), {
    data: { content: 'row-001 row-002 row-003', expectedVersion: '2', reason: 'meanwhile, by hand' },
  })
  expect(moved.status()).toBe(200)

  // 3. Reason and the number of runs typed to confirm (the keyboard reaches every control).
  const confirm = dialog.getByRole('button', { name: `Clear ${runIds.length} checkpoints` })
  await expect(confirm).toBeDisabled()
  await dialog.getByLabel('Reason (recorded in the audit log of every run)').fill('e2e: start the imports over')
  await dialog.getByLabel(/Type the number of runs to clear to confirm/).fill('2')
  await expect(confirm).toBeDisabled()
  await dialog.getByLabel(/Type the number of runs to clear to confirm/).fill(String(runIds.length))
  await expect(confirm).toBeEnabled()
  await confirm.focus()
  await page.keyboard.press('Enter')

  // 4. Per-run results, with links to each run: the moved run is a conflict and was not written.
  const results = dialog.getByRole('region', { name: 'Results of the batch' })
  await expect(results.getByRole('row')).toHaveCount(runIds.length + 1)
  const rowOf = (id: string) => results.getByRole('row').filter({ has: page.getByRole('link', { name: id }) })
  await expect(dialog.getByRole('progressbar')).toHaveCount(0)
  await expect(rowOf(runIds[0])).toContainText('done')
  await expect(rowOf(runIds[0])).toContainText('v2 → v3')
  await expect(rowOf(runIds[1])).toContainText('conflict')
  await expect(rowOf(runIds[2])).toContainText('done')
  const href = await results.getByRole('link', { name: runIds[0] }).getAttribute('href')
  expect(href).toBe(`/runs/${[org, namespace, agent, runIds[0]].map(encodeSegment).join('/')}`)
  await shots(page, 'batch-results')
  const untouched = await (await request.get(blockApi(runIds[1]))).json()
  expect(untouched.block.version).toBe('3')
  expect(untouched.block.isDeleted).toBe(false)

  // 5. Retry the conflicted run: a new preview of just that run, then its write.
  await dialog.getByRole('button', { name: 'Retry conflicted (1)' }).click()
  await expect(preview.getByRole('row')).toHaveCount(2)
  await expect(preview).toContainText('v3 → tombstone')
  // What it replaces now is an operator's write (made by hand meanwhile): named, and warned about.
  await expect(preview).toContainText('v3 live by local (operator)')
  await expect(preview.getByRole('list', { name: 'Warnings' })).toContainText("replaces an operator's write")
  await expect(dialog.getByRole('status').first()).toContainText('1 of those to write carries a warning')
  await dialog.getByLabel('Reason (recorded in the audit log of every run)').fill('e2e: retry the one that moved')
  await dialog.getByLabel(/Type the number of runs to clear to confirm/).fill('1')
  await dialog.getByRole('button', { name: 'Clear 1 checkpoint' }).click()
  await expect(rowOf(runIds[1])).toContainText('done')
  await expect(rowOf(runIds[1])).toContainText('v3 → v4')

  // 6. The run page's audit log shows the batch write.
  await results.getByRole('link', { name: runIds[1] }).click()
  await expect(page).toHaveURL(new RegExp(`/runs/${org}/${namespace}/${agent}/${runIds[1]}`))
  const audit = await (
    await request.get(`/api/runs/${[org, namespace, agent, runIds[1]].map(encodeSegment).join('/')}/audit`)
  ).json()
  expect(audit.entries[0].batchId).toMatch(/^[0-9a-f-]{36}$/)
  expect(audit.entries[0].reason).toBe('e2e: retry the one that moved')

  // 7. The run's Audit tab names the batch; its badge opens every write of that batch, console-wide.
  await page.getByRole('tab', { name: /Audit/ }).click()
  const batchId: string = audit.entries[0].batchId
  await page
    .getByRole('link', { name: `batch ${batchId.slice(0, 8)}` })
    .first()
    .click()
  await expect(page).toHaveURL(new RegExp(`/audit\\?batchId=${batchId}$`))
  const entries = page.getByRole('list', { name: 'Audit entries' }).getByRole('listitem')
  await expect(entries).toHaveCount(1)
  await expect(entries).toContainText(runIds[1])
  await expect(entries).toContainText('e2e: retry the one that moved')

  // 8. Take the retry back from the runs page: the recent batches list it, the undo previews what comes back, then writes it.
  await page.goto(`/?org=${org}&namespace=${namespace}`)
  const recent = page.getByTestId('recent-batches')
  // By keyboard: the list opens with Enter on its summary.
  await recent.locator('summary').focus()
  await page.keyboard.press('Enter')
  const latest = recent.locator(`[data-batch="${batchId}"]`)
  await expect(latest).toContainText('clear')
  await expect(latest).toContainText('1 done')
  await expect(latest).toContainText('e2e: retry the one that moved')
  await latest.getByRole('button', { name: new RegExp(`^Undo batch ${batchId.slice(0, 8)}`) }).click()
  const undo = page.getByRole('dialog', { name: `Undo batch ${batchId.slice(0, 8)}` })
  const undoPreview = undo.getByRole('region', { name: 'Preview of the batch' })
  await expect(undoPreview.getByRole('row')).toHaveCount(2)
  await expect(undoPreview).toContainText('v4 → v3')
  await expect(undo.getByRole('status').first()).toContainText('1 of 1 item to take back')
  await shots(page, 'batch-undo-preview')
  for (const theme of ['light', 'dark']) {
    await page.evaluate((t) => document.documentElement.setAttribute('data-theme', t), theme)
    const axe = await new AxeBuilder({ page })
      .include('dialog[open]')
      .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
      .analyze()
    const bad = axe.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id}: ${v.nodes[0]?.target.join(' ')}`)
    expect(bad, `${theme}: ${bad.join('; ')}`).toEqual([])
  }
  await page.evaluate(() => document.documentElement.setAttribute('data-theme', 'light'))
  await undo.getByLabel('Reason (recorded in the audit log of every run)').fill('e2e: the clear was a mistake')
  await undo.getByLabel(/Type the number of runs to undo to confirm/).fill('1')
  await undo.getByRole('button', { name: 'Undo 1 checkpoint' }).click()
  const undone = undo.getByRole('region', { name: 'Results of the batch' })
  await expect(undone.getByRole('row').filter({ has: page.getByRole('link', { name: runIds[1] }) })).toContainText(
    'v4 → v5',
  )
  const back = await (await request.get(blockApi(runIds[1]))).json()
  expect([back.block.version, back.block.content, back.block.isDeleted]).toEqual([
    '5',
    'row-001 row-002 row-003',
    false,
  ])
  await undo.getByRole('button', { name: 'Close', exact: true }).last().click()
  // The list now names the undo, and the batch it took back says so.
  await expect(recent.locator('li').first()).toContainText(`undo of batch ${batchId.slice(0, 8)}`)
  await expect(latest).toContainText('undone by')
  await expect(latest.getByRole('button', { name: /^Undo batch/ })).toHaveCount(0)

  // 9. What changed is marked on the runs chart of that period: the batches, the undo and the write by hand.
  const since = new Date(Date.now() - 12 * 3_600_000).toISOString()
  await page.goto(`/?org=${org}&namespace=${namespace}&from=${encodeURIComponent(since)}`)
  await expect(page.getByTestId('chart-changes')).toContainText(/changed: 2 batches, 1 undo, 1 single write/)
  const events = await (await request.get(`/api/events?org=${org}&namespace=${namespace}`)).json()
  expect(
    events.events.filter((e: { kind: string }) => e.kind !== 'setup').map((e: { kind: string }) => e.kind),
  ).toEqual(['undo', 'batch', 'batch', 'write'])
  await shots(page, 'runs-changes')

  // 10. The run's timeline names what operators changed while it ran: the batches and the undo.
  await page.goto(`/runs/${[org, namespace, agent, runIds[1]].map(encodeSegment).join('/')}?tab=timeline`)
  const during = page.getByTestId('changes-during')
  await expect(during).toContainText('Changed by operators or setup while this run ran')
  await expect(
    during
      .locator('li')
      .filter({ hasText: /^.*undo/ })
      .first(),
  ).toContainText(`undid batch ${batchId.slice(0, 8)}`)
  await expect(during).toContainText('cleared checkpoint in a batch')
  // 11. Its Audit tab names the undo together with the batch it took back.
  await page.getByRole('tab', { name: /Audit/ }).click()
  await expect(page.getByRole('link', { name: `undo of batch ${batchId.slice(0, 8)}` })).toBeVisible()
})
