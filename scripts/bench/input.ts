/**
 * How soon the runs page takes input, on a fresh demo database with the server `npm start` runs:
 *
 *   - filtersUsableMs: from navigation start to the search box accepting input (enabled, on screen);
 *   - filtersHydratedMs: from navigation start to the page's scripts having taken over the form;
 *   - searchNarrowMs: from the last key of a typed search (a run id) to the list showing only that run.
 *
 * Median over --loads page loads (one warm-up load first). Written into bench/results.json under
 * `input` (other keys kept). Usage: npm run bench:input [-- --loads 7 --out FILE]
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { parseArgs } from 'node:util'
import { chromium, type Browser } from '@playwright/test'
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../chromium'
import { quantile } from './routes'
import { freePort, spawnStartScript, waitForHealth } from './server'

const SEARCH = 'form[aria-label="Filter runs"] input[type="search"]'
const ROWS = 'table[aria-label="Runs"] tbody tr'

/** Page-side: resolves with performance.now() at the first frame the search box takes input. */
const USABLE = `(() => {
  const el = document.querySelector(${JSON.stringify(SEARCH)})
  return !!el && !el.disabled && !el.closest('fieldset:disabled') && el.getClientRects().length > 0 ? performance.now() : false
})()`

type Sample = { usableMs: number; hydratedMs: number; narrowMs: number | null }

async function oneLoad(browser: Browser, base: string, term: string): Promise<Sample> {
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 }, bypassCSP: true })
  try {
    const page = await context.newPage()
    await page.goto(`${base}/`, { waitUntil: 'commit' })
    const usable = await page.waitForFunction(USABLE, undefined, { polling: 'raf', timeout: 60_000 })
    const usableMs = (await usable.jsonValue()) as number
    const hydrated = await page.waitForFunction(
      `document.documentElement?.dataset.hydrated === 'true' ? performance.now() : false`,
      undefined,
      {
        polling: 'raf',
        timeout: 60_000,
      },
    )
    const hydratedMs = (await hydrated.jsonValue()) as number
    await page.waitForLoadState('networkidle', { timeout: 30_000 }).catch(() => undefined)
    // Type a run id as an operator would (one key at a time), then time until the list holds only that run.
    const box = page.locator(SEARCH)
    await box.click()
    await box.pressSequentially(term, { delay: 40 })
    const lastKeyAt = (await page.evaluate('performance.now()')) as number
    let narrowMs: number | null = null
    try {
      const done = await page.waitForFunction(
        `(() => { const rows = [...document.querySelectorAll(${JSON.stringify(ROWS)})]; return rows.length === 1 && rows[0].textContent.includes(${JSON.stringify(term)}) ? performance.now() : false })()`,
        undefined,
        { polling: 'raf', timeout: 30_000 },
      )
      narrowMs = ((await done.jsonValue()) as number) - lastKeyAt
    } catch {
      narrowMs = null
    }
    return { usableMs, hydratedMs, narrowMs }
  } finally {
    await context.close()
  }
}

async function main() {
  const { values } = parseArgs({
    options: { loads: { type: 'string', default: '7' }, out: { type: 'string', default: 'bench/results.json' } },
  })
  const loads = Number(values.loads)
  const port = await freePort()
  const base = `http://127.0.0.1:${port}`
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'loom-runs-input-'))
  const server = spawnStartScript(port, dataDir, { demo: true, detached: true })
  try {
    process.stderr.write('starting the server and seeding demo data…\n')
    await waitForHealth(base, 360)
    // A run id from the middle of the first page: typing it must narrow 50+ runs to one.
    const listed = (await (await fetch(`${base}/api/runs?limit=50`)).json()) as { runs: { runId: string }[] }
    const term = listed.runs[Math.floor(listed.runs.length / 2)].runId
    const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS })
    const samples: Sample[] = []
    try {
      for (let i = 0; i <= loads; i++) {
        const s = await oneLoad(browser, base, term)
        if (i > 0) samples.push(s)
        process.stderr.write(
          `  load ${i}${i === 0 ? ' (warm-up)' : ''}: usable ${Math.round(s.usableMs)} ms, hydrated ${Math.round(s.hydratedMs)} ms, narrowed ${s.narrowMs === null ? '—' : Math.round(s.narrowMs)} ms\n`,
        )
      }
    } finally {
      await browser.close()
    }
    const med = (xs: number[]) => (xs.length ? Math.round(quantile(xs, 0.5)) : null)
    const narrowed = samples.map((s) => s.narrowMs).filter((x): x is number => x !== null)
    const input = {
      data: 'demo',
      loads,
      filtersUsableMs: med(samples.map((s) => s.usableMs)),
      filtersHydratedMs: med(samples.map((s) => s.hydratedMs)),
      searchNarrowMs: med(narrowed),
      searchNarrowMsMax: narrowed.length ? Math.round(Math.max(...narrowed)) : null,
      searchFailed: samples.length - narrowed.length,
      note:
        'filtersUsableMs: navigation start to the search box taking input (the server-rendered form works before the scripts load); ' +
        'filtersHydratedMs: to the scripts taking the form over; searchNarrowMs: last key of a typed run id to the list showing only that run',
      measuredAt: new Date().toISOString(),
      cpus: os.cpus().length,
    }
    const file = path.resolve(values.out!)
    const doc = fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, 'utf8')) : {}
    doc.input = input
    fs.writeFileSync(file, `${JSON.stringify(doc, null, 2)}\n`)
    process.stdout.write(`${JSON.stringify(input, null, 2)}\n`)
  } finally {
    try {
      process.kill(-server.pid!, 'SIGTERM')
    } catch {
      // already gone
    }
    fs.rmSync(dataDir, { recursive: true, force: true })
  }
}

main().catch((e) => {
  console.error(e)
  process.exit(1)
})
