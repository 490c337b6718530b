import { expect, type Page } from '@playwright/test'
import { DEMO_RUNS } from '../lib/demo/scenarios'
import { RUN_TABS } from '../lib/api-client/tab-names'
import { links } from '../lib/links'

/** A run with data on most tabs: conversation, memories, searches. */
export const RICH_RUN = DEMO_RUNS.support

/** Every page of the console: the runs page, a run on each tab, the schema, login and a 404. */
export const PAGES: { name: string; path: string }[] = [
  { name: 'runs', path: links.runs() },
  ...RUN_TABS.map((tab) => ({ name: `run-${tab}`, path: links.run(RICH_RUN, { tab }) })),
  // Runs whose tabs show what the rich run lacks: an id-list checkpoint, offloaded blobs.
  { name: 'run-batch-checkpoint', path: links.run(DEMO_RUNS.batch, { tab: 'checkpoint' }) },
  { name: 'run-blob-blobs', path: links.run(DEMO_RUNS.blob, { tab: 'blobs' }) },
  { name: 'run-edited-audit', path: links.run(DEMO_RUNS.operatorEdited, { tab: 'audit' }) },
  { name: 'audit', path: links.audit({}) },
  { name: 'compare', path: links.compare(DEMO_RUNS.batch) },
  { name: 'schema', path: links.schema() },
  { name: 'login', path: '/login' },
  { name: 'not-found', path: '/no-such-page' },
  {
    name: 'run-not-found',
    path: links.run({ org: 'acme', namespace: 'prod', agent: 'batch-indexer', runId: 'no-such-run' }),
  },
]

/** Opens a page and waits until its data has replaced the loading placeholders. */
export async function openSettled(page: Page, path: string) {
  await page.goto(path)
  await expect(page.locator('main')).toBeVisible()
  await expect(page.locator('[aria-busy="true"], .skeleton')).toHaveCount(0)
}
