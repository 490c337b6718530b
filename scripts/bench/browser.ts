/**
 * Browser part of the benchmark: Debian's Chromium driven by Playwright (never a downloaded
 * browser). For each page: time from navigation start until its content is visible (recorded in
 * the page by a MutationObserver, so polling delays do not count), long tasks (PerformanceObserver),
 * and frame times while scrolling (requestAnimationFrame deltas).
 */
import { chromium, type Browser, type Page } from '@playwright/test'
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../chromium'
import { RUN_TABS } from '../../lib/api-client/tab-names'
import { quantile } from './routes'
import { clickToRun, domNodesByTab, type ClickTiming } from './browser-journeys'

export type Probe = { marks: Record<string, number>; longTasks: { start: number; duration: number }[] }
type ScrollOutcome = {
  frames: number[]
  longTasks: { start: number; duration: number }[]
  scrolled: number
  scrollHeight: number
}

// Page-side code is kept as plain JavaScript text: functions compiled by tsx carry helper calls
// (`__name`) that do not exist in the page.

/** Installed before any page script: records when each selector first shows, and long tasks. */
export const PROBE = `(selectors) => {
  const b = (window.__bench = { marks: {}, longTasks: [] })
  try {
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) b.longTasks.push({ start: e.startTime, duration: e.duration })
    }).observe({ type: 'longtask', buffered: true })
  } catch (e) {}
  const check = () => {
    for (const [name, sel] of Object.entries(selectors)) {
      if (name in b.marks) continue
      const el = document.querySelector(sel)
      if (el && el.getClientRects().length > 0) b.marks[name] = performance.now()
    }
  }
  new MutationObserver(check).observe(document, { subtree: true, childList: true, attributes: true })
}`

/** Scrolls an element (or the page) for ~2.5 s, down then up, one step per frame. */
const SCROLL = `async (sel) => {
  const b = window.__bench
  const el = sel ? document.querySelector(sel) : document.scrollingElement
  if (!el) return { frames: [], longTasks: [], scrolled: 0, scrollHeight: 0 }
  const before = b.longTasks.length
  const frames = []
  let dir = 1
  let scrolled = 0
  await new Promise((resolve) => {
    let last = performance.now()
    const t0 = last
    const step = (now) => {
      frames.push(now - last)
      last = now
      const prev = el.scrollTop
      el.scrollTop += dir * 90
      scrolled += Math.abs(el.scrollTop - prev)
      if (el.scrollTop + el.clientHeight >= el.scrollHeight - 1) dir = -1
      if (el.scrollTop <= 0) dir = 1
      if (now - t0 < 2500) requestAnimationFrame(step)
      else resolve()
    }
    requestAnimationFrame(step)
  })
  return { frames: frames.slice(2), longTasks: b.longTasks.slice(before), scrolled, scrollHeight: el.scrollHeight }
}`

async function scrollFrames(page: Page, selector: string | null): Promise<ScrollOutcome> {
  return page.evaluate(`(${SCROLL})(${JSON.stringify(selector)})`) as Promise<ScrollOutcome>
}

export type PageTiming = {
  url: string
  /** Navigation start → content visible (median over loads). */
  visibleMs: number | null
  visibleMsAll: (number | null)[]
  /** visible, or the end of the last long task before the first 1.5 s without one, when later (median). */
  interactiveMs: number | null
  longTasksDuringLoad: number
  longestTaskMs: number
  domNodes: number
  /** Bytes (encoded) of the script resources the page had requested before its content showed (last load). */
  scriptBytesBeforeVisible: number | null
  scroll: {
    target: string
    maxFrameMs: number
    p95FrameMs: number
    frames: number
    framesOver16ms: number
    longTasks: number
    scrolledPx: number
    scrollHeight: number
  } | null
  note?: string
}

/** Wait after opening a fresh context, before navigating (see timePage). */
const SETTLE_MS = 1000

const debug = (s: string) => {
  if (process.env.BENCH_DEBUG) process.stderr.write(`    [browser] ${s}\n`)
}

export async function timePage(
  browser: Browser,
  url: string,
  selectors: Record<string, string>,
  visibleKey: string,
  loads: number,
  scrollSelector: () => Promise<string | null>,
): Promise<PageTiming> {
  const visible: (number | null)[] = []
  const interactive: number[] = []
  let longTasks = 0
  let longest = 0
  let domNodes = 0
  let scriptBytes: number | null = null
  let scroll: PageTiming['scroll'] = null
  for (let i = 0; i <= loads; i++) {
    // bypassCSP: the app's CSP forbids eval, which Playwright's string predicates need (no effect on the app).
    const context = await browser.newContext({ viewport: { width: 1400, height: 900 }, bypassCSP: true })
    const page = await context.newPage()
    await page.addInitScript({ content: `(${PROBE})(${JSON.stringify(selectors)})` })
    // Closing the last context and opening this one (a new renderer process) keeps a core busy for
    // a while after newPage() returns; on a small machine whose cores the server shares, that
    // slowed the page's own load by 200-300 ms. An operator's browser is already running: settle.
    await page.waitForTimeout(SETTLE_MS)
    debug(`load ${i} ${url}`)
    await page.goto(url, { waitUntil: 'commit' })
    try {
      await page.waitForFunction(
        `!!window.__bench && ${JSON.stringify(visibleKey)} in window.__bench.marks`,
        undefined,
        { timeout: 60_000, polling: 50 },
      )
    } catch (err) {
      debug(`not visible: ${err instanceof Error ? err.message.split('\n')[0] : err}`)
    }
    debug(`load ${i} waited`)
    // Settle: the network goes quiet, then no long task for 1.5 s (at most 30 s): work that the
    // page does after its content shows (rendering what the rest of its queries bring) counts.
    // The first quiet window ends "interactive" (a page that polls keeps having tasks later).
    await page.waitForLoadState('networkidle', { timeout: 30_000 }).catch(() => undefined)
    let settledAt: number | null = null
    for (const until = Date.now() + 30_000; Date.now() < until;) {
      const [now, lastEnd] = (await page.evaluate(
        '[performance.now(), Math.max(0, ...window.__bench.longTasks.map((t) => t.start + t.duration))]',
      )) as [number, number]
      if (now - lastEnd >= 1500) {
        settledAt = lastEnd
        break
      }
      await page.waitForTimeout(250)
    }
    const probe = (await page.evaluate('window.__bench')) as Probe
    const v = probe.marks[visibleKey] ?? null
    if (i > 0) {
      // The first load warms the server and the HTTP cache of the static chunks: not counted.
      visible.push(v)
      const lastTaskEnd = settledAt ?? Math.max(0, ...probe.longTasks.map((t) => t.start + t.duration))
      if (v !== null) interactive.push(Math.max(v, lastTaskEnd))
      const loadTasks = probe.longTasks.filter((t) => t.start < lastTaskEnd + 1)
      longTasks = Math.max(longTasks, loadTasks.length)
      longest = Math.max(longest, ...loadTasks.map((t) => t.duration))
      domNodes = (await page.evaluate("document.getElementsByTagName('*').length")) as number
      if (v !== null) scriptBytes = await scriptBytesBefore(page, v)
      if (i === loads && v !== null) {
        const sel = await scrollSelector()
        debug(`scrolling ${sel ?? 'page'}`)
        const s = await scrollFrames(page, sel)
        debug('scrolled')
        scroll = {
          target: sel ?? 'page',
          maxFrameMs: Math.round(Math.max(0, ...s.frames) * 10) / 10,
          p95FrameMs: Math.round(quantile(s.frames, 0.95) * 10) / 10,
          frames: s.frames.length,
          framesOver16ms: s.frames.filter((f) => f > 16.7 * 1.2).length,
          longTasks: s.longTasks.length,
          scrolledPx: Math.round(s.scrolled),
          scrollHeight: s.scrollHeight,
        }
      }
    }
    await context.close()
  }
  const ok = visible.filter((x): x is number => x !== null)
  return {
    url,
    visibleMs: ok.length ? Math.round(quantile(ok, 0.5)) : null,
    visibleMsAll: visible.map((x) => (x === null ? null : Math.round(x))),
    interactiveMs: interactive.length ? Math.round(quantile(interactive, 0.5)) : null,
    longTasksDuringLoad: longTasks,
    longestTaskMs: Math.round(longest),
    domNodes,
    scriptBytesBeforeVisible: scriptBytes,
    scroll,
  }
}

/** Encoded bytes of the script resources requested before `at` (ms since navigation start). */
export async function scriptBytesBefore(page: Page, at: number): Promise<number> {
  return (await page.evaluate(
    `performance.getEntriesByType('resource').filter((e) => e.initiatorType === 'script' && e.startTime < ${at}).reduce((n, e) => n + (e.encodedBodySize || e.transferSize || 0), 0)`,
  )) as number
}

export type BrowserResult = {
  runsPage: PageTiming
  bigRunPage: PageTiming & { timelineTab: boolean; events: number | null }
  /** A typical run's page, until its goal shows. */
  runPage: PageTiming | null
  clickToRun: ClickTiming
  /** The huge run's Conversation tab, until its first turns show. */
  bigConversation: PageTiming & { turns: number | null }
  /** DOM elements per tab of the huge run. */
  bigRunDomNodes: Record<string, number>
  /** The compare page of a typical run (with its agent's last success), until the figures table shows. */
  comparePage: PageTiming | null
}

/** Times the runs page and the page of the biggest run (its timeline when the app has that tab). */
export async function browserBench(
  base: string,
  paths: { bigRun: string; typicalRun: string | null; compare?: string | null },
  counts: { bigRunEvents: number | null; bigRunTurns: number | null },
  loads: number,
): Promise<BrowserResult> {
  const bigRunPath = paths.bigRun
  const bigRunEvents = counts.bigRunEvents
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS })
  try {
    // A page that is not scrolled: its path, what to wait for and which of those counts as visible.
    const timeStill = (path: string, selectors: Record<string, string>, visibleKey: string) =>
      timePage(browser, `${base}${path}`, selectors, visibleKey, loads, async () => null)
    const runsPage = await timeStill('/', { rows: 'table[aria-label="Runs"] tbody tr' }, 'rows')
    // Does the run page have a timeline tab yet?
    const probeCtx = await browser.newContext()
    const probePage = await probeCtx.newPage()
    await probePage.goto(`${base}${bigRunPath}`)
    await probePage.locator('section[aria-label="Run summary"]').waitFor({ timeout: 60_000 })
    const timelineTab = (await probePage.getByRole('tab', { name: /timeline/i }).count()) > 0
    await probeCtx.close()
    const timelineSel = '[role="listbox"][aria-label^="Timeline events"] [role="option"]'
    const bigRunPage = timelineTab
      ? await timePage(
          browser,
          `${base}${bigRunPath}?tab=timeline`,
          { summary: 'section[aria-label="Run summary"]', timeline: timelineSel },
          'timeline',
          loads,
          async () => '[role="listbox"][aria-label^="Timeline events"]',
        )
      : await timeStill(
          bigRunPath,
          { summary: 'section[aria-label="Run summary"]', panel: '[role="tabpanel"] > *' },
          'panel',
        )
    const runPage = paths.typicalRun
      ? await timeStill(paths.typicalRun, { goal: 'section[aria-label="Run summary"] h1' }, 'goal')
      : null
    const comparePage = paths.compare
      ? await timeStill(paths.compare, { facts: 'table[aria-label="The two runs side by side"]' }, 'facts')
      : null
    const click = await clickToRun(browser, base, loads)
    const turnsList = '[aria-label^="Turns, "]'
    const bigConversation = await timePage(
      browser,
      `${base}${bigRunPath}?tab=conversation`,
      { summary: 'section[aria-label="Run summary"]', turns: 'ol[aria-label="Turns in order"] li' },
      'turns',
      loads,
      async () => turnsList,
    )
    const bigRunDomNodes = await domNodesByTab(browser, base, bigRunPath, RUN_TABS)
    return {
      runsPage,
      runPage,
      clickToRun: click,
      bigConversation: { ...bigConversation, turns: counts.bigRunTurns },
      bigRunDomNodes,
      comparePage,
      bigRunPage: {
        ...bigRunPage,
        timelineTab,
        events: bigRunEvents,
        note: timelineTab
          ? 'time until the first timeline rows are visible; frames while scrolling the timeline list'
          : 'the run page has no timeline tab in this build: time until the run summary and the default tab are visible; frames while scrolling the page',
      },
    }
  } finally {
    await browser.close()
  }
}
