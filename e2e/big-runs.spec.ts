import { expect, test, type Page } from '@playwright/test'
import { DEMO_RUNS } from '../lib/demo/scenarios'
import { links } from '../lib/links'
import type { RunRef } from '../lib/loom/identity'
import { BIG_RUN, MANY_BLOCKS_RUN } from './fixtures'

const MAX_DOM_NODES = 3_000

const tabUrl = (run: RunRef, tab: string) => links.run(run, { tab })
const domNodes = (page: Page) => page.evaluate(() => document.getElementsByTagName('*').length)

/** The API routes of one run the page asked for, as paths with their query strings. */
function apiRequests(page: Page, run: RunRef): string[] {
  const prefix = links.api.run(run)
  const seen: string[] = []
  page.on('request', (req) => {
    const url = new URL(req.url())
    if (url.pathname.startsWith(prefix)) seen.push(url.pathname.slice(prefix.length) + url.search)
  })
  return seen
}

test('conversation of 12,345 turns: few DOM nodes, and search finds a turn far down', async ({ page }) => {
  await page.goto(tabUrl(BIG_RUN, 'conversation'))
  const turns = page.locator('li[data-turn-index]')
  await expect(turns.first()).toBeVisible()
  await expect(page.getByRole('status').filter({ hasText: '12,345 turns in 1 conversation' })).toBeVisible()
  expect(await domNodes(page)).toBeLessThan(MAX_DOM_NODES)

  // Scrolling to the end keeps the DOM small and shows the last turn.
  const box = page.getByRole('region', { name: 'Conversation Long thread' }).locator('[aria-label^="Turns,"]')
  await box.evaluate((el) => el.scrollTo({ top: el.scrollHeight }))
  await expect(page.locator(`li[data-turn-index="${BIG_RUN.turns - 1}"]`)).toBeVisible()
  expect(await domNodes(page)).toBeLessThan(MAX_DOM_NODES)

  await page.getByRole('searchbox', { name: 'Search turns' }).fill('message 12340')
  await expect(page.getByRole('status').filter({ hasText: '1 of 12,345 turns contain “message 12340”' })).toBeVisible()
  const hit = page.locator('li[data-turn-index="12340"]')
  await expect(hit).toBeVisible()
  await expect(hit.locator('mark')).toHaveText(['message 12340'])
  await expect(turns).toHaveCount(1)
  expect(await domNodes(page)).toBeLessThan(MAX_DOM_NODES)
})

test('blocks tab of a run with 2,500 blocks: few DOM nodes, every block reachable by scrolling', async ({ page }) => {
  await page.goto(tabUrl(MANY_BLOCKS_RUN, 'blocks'))
  await expect(page.locator('article.block[data-block-key="checkpoint"]')).toBeVisible()
  expect(await domNodes(page)).toBeLessThan(MAX_DOM_NODES)
  const box = page.getByLabel('2,500 blocks; scroll for more')
  await box.evaluate((el) => el.scrollTo({ top: el.scrollHeight }))
  await expect(page.locator(`article.block[data-block-key="note-${MANY_BLOCKS_RUN.blocks - 1}"]`)).toBeVisible()
  expect(await domNodes(page)).toBeLessThan(MAX_DOM_NODES)
})

test('checkpoint tab of a run with 2,500 blocks: the picker comes from the content-free list and stays small', async ({
  page,
}) => {
  const seen = apiRequests(page, MANY_BLOCKS_RUN)
  await page.goto(tabUrl(MANY_BLOCKS_RUN, 'checkpoint'))
  const picker = page.getByRole('navigation', { name: 'Blocks of this run' })
  await expect(picker.locator('button[data-block-key="checkpoint"]')).toHaveAttribute('aria-current', 'true')
  await expect(page.getByRole('region', { name: 'Resume explainer' })).toBeVisible()
  expect(await domNodes(page)).toBeLessThan(MAX_DOM_NODES)
  // Neither the server nor the client loads every block with its content for the picker.
  expect(seen.filter((p) => p === '/blocks' || (p.startsWith('/blocks?') && !p.includes('content=none')))).toEqual([])
  await picker.locator('button[data-block-key="note-0007"]').click()
  await expect(
    page.getByRole('region', { name: 'Resume explainer' }).getByRole('heading', { name: /note-0007/ }),
  ).toBeVisible()
})

test.describe('the open tab renders on the server', () => {
  const run = DEMO_RUNS.batch

  test("the HTML of ?tab=timeline holds the first timeline event's text", async ({ request }) => {
    const timeline = await (await request.get(links.api.timeline(run))).json()
    const first: string = timeline.events[0].label
    const html = await (await request.get(tabUrl(run, 'timeline'))).text()
    const escaped = first
      .replace(/&/g, '&amp;')
      .replace(/</g, '&lt;')
      .replace(/>/g, '&gt;')
      .replace(/"/g, '&quot;')
      .replace(/'/g, '&#x27;')
    // Rendered as a row of the list, not only carried in the page's data.
    expect(html).toContain(`data-testid="timeline-label" title="${escaped}"`)
    expect(html).toContain(run.runId)
    // In the page's first markup, not in a streamed Suspense segment that React reveals later
    // (a hidden `S:` segment swapped in for a `B:` placeholder, after a reveal throttle).
    expect(html).not.toMatch(/<template id="B:|<div hidden id="S:/)
    expect(html.indexOf('data-testid="timeline-label"')).toBeLessThan(html.indexOf('self.__next_f'))
  })

  test('the client takes over without asking for the tab again', async ({ page }) => {
    const seen = apiRequests(page, run)
    await page.goto(tabUrl(run, 'timeline'))
    await expect(
      page
        .getByRole('listbox', { name: /Timeline events/ })
        .getByRole('option')
        .first(),
    ).toBeVisible()
    await page.waitForLoadState('networkidle')
    expect(seen.filter((p) => p.startsWith('/timeline'))).toEqual([])
    expect(seen.filter((p) => p === '' || p.startsWith('?'))).toEqual([])
  })

  test('a timeline too long to inline: the HTML holds its first events, and the whole replaces them', async ({
    page,
    request,
  }) => {
    const preview = await (await request.get(links.api.timeline(BIG_RUN, 300))).json()
    expect(preview.events).toHaveLength(300)
    // React separates adjacent text in the HTML with empty comments.
    const html = (await (await request.get(tabUrl(BIG_RUN, 'timeline'))).text()).replaceAll('<!-- -->', '')
    // The first events as rows of the list, with a note that the rest is loading.
    expect(html).toContain(`data-testid="timeline-label" title="${preview.events[1].label}"`)
    expect(html).toContain('Showing the first 300 of 12,347 events while the rest loads')
    const seen = apiRequests(page, BIG_RUN)
    await page.goto(tabUrl(BIG_RUN, 'timeline'))
    await expect(page.getByText('Showing the first 10,000 of 12,347 events')).toBeVisible()
    await expect(page.getByText(/while the rest loads/)).toHaveCount(0)
    // The client asked for the whole timeline once, and not for the first part again.
    expect(seen.filter((p) => p.startsWith('/timeline'))).toEqual(['/timeline'])
  })

  test('a transcript too long to inline: the HTML holds its first turns, and the whole replaces them', async ({
    page,
    request,
  }) => {
    const html = (await (await request.get(tabUrl(BIG_RUN, 'conversation'))).text()).replaceAll('<!-- -->', '')
    expect(html).toContain('data-turn-index="0"')
    expect(html).toContain('Showing the first 300 turns while the rest loads')
    const seen = apiRequests(page, BIG_RUN)
    await page.goto(tabUrl(BIG_RUN, 'conversation'))
    await expect(page.getByRole('status').filter({ hasText: '12,345 turns in 1 conversation' })).toBeVisible()
    await expect(page.getByText(/while the rest loads/)).toHaveCount(0)
    expect(seen.filter((p) => p.startsWith('/conversations'))).toEqual(['/conversations'])
  })

  test('the conversation tab of a small run comes in the HTML too', async ({ page, request }) => {
    const reader = DEMO_RUNS.researchReader
    const html = await (await request.get(tabUrl(reader, 'conversation'))).text()
    expect(html).toContain('data-turn-index="4"')
    const seen = apiRequests(page, reader)
    await page.goto(tabUrl(reader, 'conversation'))
    await expect(page.locator('li[data-turn-index]')).toHaveCount(5)
    await page.waitForLoadState('networkidle')
    expect(seen.filter((p) => p.startsWith('/conversations'))).toEqual([])
  })
})
