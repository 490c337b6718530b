/**
 * Browser measurements beyond a single page load: clicking a run in the list through to its
 * goal (a client-side navigation), and the DOM size of every tab of a run.
 */
import type { Browser } from '@playwright/test'
import { PROBE, type Probe } from './browser'
import { quantile } from './routes'

const RUN_GOAL = 'section[aria-label="Run summary"] h1'
const RUNS_ROWS = 'table[aria-label="Runs"] tbody tr'

export type ClickTiming = { ms: number | null; msAll: (number | null)[]; note: string }

/**
 * From the click on the first run link of the runs page to that run's goal being visible. The
 * click waits until the page has hydrated, so the link is handled by the client router (the
 * probe's marks share one time origin only within one document).
 */
export async function clickToRun(browser: Browser, base: string, loads: number): Promise<ClickTiming> {
  const all: (number | null)[] = []
  for (let i = 0; i <= loads; i++) {
    const context = await browser.newContext({ viewport: { width: 1400, height: 900 }, bypassCSP: true })
    const page = await context.newPage()
    await page.addInitScript({ content: `(${PROBE})(${JSON.stringify({ rows: RUNS_ROWS, goal: RUN_GOAL })})` })
    await page.goto(`${base}/`)
    let ms: number | null = null
    try {
      await page.locator('html[data-hydrated="true"]').waitFor({ state: 'attached', timeout: 60_000 })
      const link = page.locator(`${RUNS_ROWS} a[href^="/runs/"]`).first()
      await link.waitFor({ timeout: 60_000 })
      await page.waitForLoadState('networkidle', { timeout: 30_000 }).catch(() => undefined)
      const clickedAt = (await page.evaluate('performance.now()')) as number
      await link.click()
      await page.waitForFunction(`'goal' in window.__bench.marks`, undefined, { timeout: 60_000, polling: 50 })
      const probe = (await page.evaluate('window.__bench')) as Probe
      ms = probe.marks.goal - clickedAt
    } catch {
      ms = null
    }
    if (i > 0) all.push(ms === null ? null : Math.round(ms))
    await context.close()
  }
  const ok = all.filter((x): x is number => x !== null)
  return {
    ms: ok.length ? Math.round(quantile(ok, 0.5)) : null,
    msAll: all,
    note: "from the click on the first run in the list (after hydration) to that run's goal visible",
  }
}

/** DOM elements on each tab of a run once it has settled (network idle, then 1 s). */
export async function domNodesByTab(
  browser: Browser,
  base: string,
  runPath: string,
  tabs: readonly string[],
): Promise<Record<string, number>> {
  const out: Record<string, number> = {}
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 } })
  try {
    const page = await context.newPage()
    for (const tab of tabs) {
      await page.goto(`${base}${runPath}?tab=${tab}`)
      await page
        .locator(RUN_GOAL)
        .waitFor({ timeout: 60_000 })
        .catch(() => undefined)
      await page.waitForLoadState('networkidle', { timeout: 30_000 }).catch(() => undefined)
      await page.waitForTimeout(1000)
      out[tab] = (await page.evaluate("document.getElementsByTagName('*').length")) as number
    }
  } finally {
    await context.close()
  }
  return out
}
