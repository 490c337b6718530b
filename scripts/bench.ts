/**
 * The performance benchmark (product spec, "Performance"). Not part of `npm test`.
 *
 *   npm run bench               # 1M runs / 10M working-memory rows (seeds bench/data/embedded if missing)
 *   npm run bench -- --quick    # 1/10 of that, in bench/data/embedded-quick
 *
 * Builds the app (a copy in .data/bench-build, rebuilt when the sources change), starts `next start`
 * on a free port against the bench data with LOOM_RUNS_BENCH=1, and measures every API route
 * (median and p95 over --requests requests after --warmup), next to ClickHouse's own time and
 * rows read for the same request (response headers, summed over the request's queries). Then the
 * browser part (Chromium via Playwright), then the runs list's SQL bare: union query vs run index.
 * Writes bench/results.json (bench/results-quick.json with --quick) and prints a table.
 *
 * Options: --scale N (runs; other tables in proportion), --data-dir DIR, --requests N, --warmup N,
 * --no-browser, --browser-loads N, --build if-stale|always|if-missing|never, --server http|in-process,
 * --out FILE, --no-sql-compare, --no-seed.
 */
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { parseArgs } from 'node:util'
import { z } from 'zod'
import { decodeCursor, encodeCursor } from '../lib/api/cursor'
import { previewBatch } from '../lib/batch/batch'
import { getClient } from '../lib/clickhouse/client'
import { queryRows, withQueryStats } from '../lib/clickhouse/query'
import { getConfig } from '../lib/config'
import { runIndexNames } from '../lib/derived/names'
import { listRuns } from '../lib/queries/runs'
import type { BrowserResult } from './bench/browser'
import { DEFAULT_DATA_DIR, metaPathFor, QUICK_DATA_DIR } from './bench/paths'
import {
  httpFetcher,
  inProcessFetcher,
  listRoutes,
  longestStatementPerPage,
  measure,
  pageRoutes,
  quantile,
  runBase,
  runRoutes,
  type Fetcher,
  type RouteResult,
  type RouteSpec,
  type Sample,
} from './bench/routes'
import type { BuildMode } from './bench/server'
import { SERVER_NODE_ARGS } from './server-node'

const FULL = { runs: 1_000_000, versions: 10_000_000, turns: 1_000_000, memories: 1_000_000, searches: 1_000_000 }
/** "A few thousand rows" per run-scoped route, as the benchmark checks it. */
const ROWS_READ_LIMIT = 5_000
/** No statement of a default page holds the one-at-a-time embedded engine longer than this. */
const STATEMENT_LIMIT_MS = 100

type SeedMeta = {
  requested: typeof FULL
  rows: Record<string, number>
  runs: { withRunRow: number; checkpointOnly: number; total: number }
  options: { anchorMs: number; spanDays: number }
  samples: Record<string, Sample & { startedAt: string }>
  filters: { org: string; status: string; q: string }
  engine: string
  historyCapture: string
}

const log = (s: string) => process.stderr.write(`${s}\n`)

function int(name: string, v: string | undefined, dflt: number) {
  if (v === undefined) return dflt
  const n = Number(v.replace(/[_,]/g, ''))
  if (!Number.isSafeInteger(n) || n < 0) throw new Error(`--${name} must be a whole number`)
  return n
}

function printTable(rows: RouteResult[]) {
  const head = ['route', 'p50 ms', 'p95 ms', 'bare p50', 'ratio', 'rows read', 'queries']
  const body = rows.map((r) => [
    r.route,
    r.p50Ms.toFixed(1),
    r.p95Ms.toFixed(1),
    r.bareP50Ms === null ? '—' : r.bareP50Ms.toFixed(1),
    r.ratio === null ? '—' : r.ratio.toFixed(2),
    r.rowsRead === null ? '—' : r.rowsRead.toLocaleString('en'),
    r.queries === null ? '—' : String(r.queries),
  ])
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((b) => b[i].length)))
  const line = (cells: string[]) =>
    cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ')
  console.log(line(head))
  console.log(widths.map((w) => '-'.repeat(w)).join('  '))
  for (const b of body) console.log(line(b))
}

async function main() {
  const { values } = parseArgs({
    options: {
      quick: { type: 'boolean', default: false },
      scale: { type: 'string' },
      'data-dir': { type: 'string' },
      requests: { type: 'string' },
      warmup: { type: 'string' },
      'no-browser': { type: 'boolean', default: false },
      'browser-loads': { type: 'string' },
      build: { type: 'string', default: 'if-stale' },
      server: { type: 'string', default: 'http' },
      out: { type: 'string' },
      'no-sql-compare': { type: 'boolean', default: false },
      'no-seed': { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
    strict: true,
  })
  if (values.help) {
    console.log(
      'Usage: npm run bench -- [--quick] [--scale N] [--data-dir DIR] [--requests N] [--warmup N] [--no-browser] [--build MODE] [--server http|in-process] [--out FILE]',
    )
    return
  }
  const runs = values.scale !== undefined ? int('scale', values.scale, 0) : values.quick ? FULL.runs / 10 : FULL.runs
  const f = runs / FULL.runs
  const scale = {
    runs,
    versions: Math.round(FULL.versions * f),
    turns: Math.round(FULL.turns * f),
    memories: Math.round(FULL.memories * f),
    searches: Math.round(FULL.searches * f),
  }
  const dataDir = path.resolve(values['data-dir'] ?? (values.quick ? QUICK_DATA_DIR : DEFAULT_DATA_DIR))
  const out = path.resolve(values.out ?? (values.quick ? 'bench/results-quick.json' : 'bench/results.json'))
  const requests = int('requests', values.requests, 30)
  const warmup = int('warmup', values.warmup, 5)
  const browserLoads = int('browser-loads', values['browser-loads'], 3)
  const serverMode = values.server
  if (serverMode !== 'http' && serverMode !== 'in-process') throw new Error('--server must be http or in-process')
  const build = values.build as BuildMode
  if (!['if-stale', 'always', 'if-missing', 'never'].includes(build))
    throw new Error('--build must be if-stale, always, if-missing or never')
  const started = Date.now()

  // 1. Data: seed when missing (in its own process: one process per embedded data directory).
  const metaPath = metaPathFor(dataDir)
  if (!fs.existsSync(metaPath)) {
    if (fs.existsSync(dataDir) && fs.readdirSync(dataDir).length > 0) {
      throw new Error(
        `${dataDir} holds data but no ${path.basename(metaPath)}: reseed with npm run seed:bulk -- --force --data-dir ${dataDir}`,
      )
    }
    if (values['no-seed']) throw new Error(`no bench data in ${dataDir}`)
    log(`No bench data in ${dataDir}: seeding ${runs.toLocaleString('en')} runs ...`)
    const args = [...SERVER_NODE_ARGS, path.join(__dirname, 'seed-bulk.ts'), '--data-dir', dataDir]
    for (const [k, v] of Object.entries(scale)) args.push(`--${k}`, String(v))
    const r = spawnSync(process.execPath, args, { stdio: 'inherit', cwd: path.resolve(__dirname, '..') })
    if (r.status !== 0) throw new Error(`seed:bulk failed (exit ${r.status})`)
  }
  const meta = JSON.parse(fs.readFileSync(metaPath, 'utf8')) as SeedMeta
  if (meta.requested.runs !== runs) {
    throw new Error(
      `${dataDir} was seeded with ${meta.requested.runs} runs, not ${runs}: pass --scale ${meta.requested.runs}, or reseed with --force`,
    )
  }
  const wmRows =
    meta.rows['loom.working_memory'] ??
    meta.rows[Object.keys(meta.rows).find((k) => k.endsWith('.working_memory')) ?? ''] ??
    0
  log(
    `Bench data: ${meta.runs.total.toLocaleString('en')} runs (${meta.runs.checkpointOnly.toLocaleString('en')} checkpoint-only), ${wmRows.toLocaleString('en')} working-memory rows`,
  )

  // Diagnostics on, engine pointed at the bench data, for whatever runs in this process.
  process.env.LOOM_RUNS_BENCH = '1'
  process.env.LOOM_RUNS_DATA_DIR = dataDir
  process.env.LOOM_RUNS_DEMO = '0'
  delete process.env.CLICKHOUSE_URL
  delete process.env.LOOM_RUNS_USERS

  // 2. Server.
  let fetcher: Fetcher
  let stopServer = async () => {}
  let server: { url: string; startMs: number; rssMb: () => number | null } | null = null
  let buildInfo: { built: boolean; ms: number; hash: string } | null = null
  if (serverMode === 'http') {
    const srv = await import('./bench/server')
    buildInfo = await srv.ensureBuild(build, log)
    if (buildInfo.built) log(`  built in ${(buildInfo.ms / 1000).toFixed(1)}s`)
    const running = await srv.startServer(dataDir, log)
    server = running
    stopServer = running.stop
    fetcher = httpFetcher(running.url)
  } else {
    fetcher = await inProcessFetcher()
  }

  try {
    // 3. API routes.
    const health = (await fetcher('/api/health').catch(() => null))?.body as { clickhouseVersion?: string } | null
    let deep: string | null = null
    {
      let cursor: string | null = null
      for (let page = 0; page < 20; page++) {
        const r: { body: unknown } = await fetcher(`/api/runs?limit=50${cursor ? `&cursor=${cursor}` : ''}`)
        cursor = (r.body as { nextCursor: string | null }).nextCursor
        if (!cursor) break
      }
      deep = cursor
    }
    const midMs = meta.options.anchorMs - (meta.options.spanDays * 86_400_000) / 2
    const mid = encodeCursor({
      startedAt: new Date(midMs).toISOString().replace('T', ' ').replace('Z', ''),
      org: '',
      namespace: '',
      agent: '',
      runId: '',
    })
    const pollSince = new Date(Date.now() - 60_000).toISOString()
    const specs: RouteSpec[] = [...listRoutes(meta.filters, { deep, mid }, pollSince)]
    const samples = meta.samples
    // Checkpoint routes go to the identity the run's checkpoint was written under (it may differ from the run row's).
    const cp = async (s: Sample): Promise<Sample> => {
      const run = (await fetcher(runBase(s))).body as {
        run?: { checkpoint?: { userId: string; sessionId: string } | null }
      } | null
      const c = run?.run?.checkpoint
      return c ? { ...s, userId: c.userId, sessionId: c.sessionId } : s
    }
    if (samples.typical) specs.push(...runRoutes('typical run', await cp(samples.typical)))
    if (samples.busyAgent) specs.push(...runRoutes('busiest multi-user agent', await cp(samples.busyAgent)))
    if (samples.huge) specs.push(...runRoutes('huge run', await cp(samples.huge)))
    if (samples.checkpointOnly) specs.push(...runRoutes('checkpoint-only run', await cp(samples.checkpointOnly), true))
    const results: RouteResult[] = []
    for (const spec of specs) {
      const r = await measure(fetcher, spec, requests, warmup)
      log(
        `  ${spec.route.padEnd(50)} p50 ${r.p50Ms.toFixed(1).padStart(8)} ms  bare ${String(r.bareP50Ms ?? '—').padStart(8)} ms  rows ${String(r.rowsRead ?? '—').padStart(9)}${r.errors ? `  ${r.errors} errors (status ${r.status})` : ''}`,
      )
      results.push(r)
    }
    let bigRunEvents: number | null = null
    if (samples.huge) {
      const t = (await fetcher(`${runBase(samples.huge)}/timeline`)).body as { total?: number } | null
      bigRunEvents = t?.total ?? null
    }

    // 4. Browser.
    let browser: BrowserResult | null = null
    let browserSkipped: string | null = null
    if (values['no-browser']) browserSkipped = '--no-browser'
    else if (!server) browserSkipped = 'in-process mode has no HTTP server'
    else if (!samples.huge) browserSkipped = 'no huge run in the bench data'
    else if (!fs.existsSync(process.env.CHROMIUM_PATH || '/usr/bin/chromium'))
      browserSkipped = 'no Chromium at /usr/bin/chromium (npm run browser:ensure)'
    else {
      log('  browser: runs page and the huge run page ...')
      const { browserBench } = await import('./bench/browser')
      const h = samples.huge
      const pagePath = `/runs/${[h.org, h.namespace, h.agent, h.runId].map(encodeURIComponent).join('/')}`
      const t = samples.typical
      const typicalPath = t ? `/runs/${[t.org, t.namespace, t.agent, t.runId].map(encodeURIComponent).join('/')}` : null
      const conv = (await fetcher(`${runBase(h)}/conversations`)).body as {
        conversations?: { turns?: unknown[] }[]
      } | null
      const bigRunTurns = conv?.conversations
        ? Math.max(0, ...conv.conversations.map((c) => c.turns?.length ?? 0))
        : null
      const comparePath = t
        ? `/compare?a=${encodeURIComponent([t.org, t.namespace, t.agent, t.runId].map(encodeURIComponent).join('/'))}`
        : null
      browser = await browserBench(
        server.url,
        { bigRun: pagePath, typicalRun: typicalPath, compare: comparePath },
        { bigRunEvents, bigRunTurns },
        browserLoads,
      )
    }
    const rssMb = server?.rssMb() ?? null
    await stopServer()
    stopServer = async () => {}

    // 5. The runs list's SQL bare, in this process: union query vs run index.
    const sqlCompare: Record<string, unknown>[] = []
    if (!values['no-sql-compare']) {
      log('  runs list SQL, bare: union query vs run index ...')
      const cases: [string, Parameters<typeof listRuns>[0]['filter'], string | null][] = [
        ['page 1', {}, null],
        ['deep page (cursor)', {}, deep],
        ['status=unknown', { status: 'unknown' }, null],
      ]
      for (const [name, filter, cur] of cases) {
        const row: Record<string, unknown> = { case: name }
        for (const source of ['union', 'index'] as const) {
          const ms: number[] = []
          const ch: number[] = []
          let rowsRead = 0
          for (let i = 0; i < 6; i++) {
            const t0 = performance.now()
            const [, stats] = await withQueryStats(() =>
              listRuns({ filter, cursor: cur ? decodeCursor(cur)! : undefined, limit: 50, source }),
            )
            if (i === 0) continue
            ms.push(performance.now() - t0)
            ch.push(stats?.chMs ?? 0)
            rowsRead = stats?.rowsRead ?? 0
          }
          row[source] = {
            p50Ms: Math.round(quantile(ms, 0.5) * 10) / 10,
            bareP50Ms: Math.round(quantile(ch, 0.5) * 10) / 10,
            rowsRead,
          }
        }
        sqlCompare.push(row)
      }
    }

    // 5b. Batch dry runs in this process (the preview an operator sees before a batch reset).
    const batches: Record<string, unknown>[] = []
    if (!values['no-sql-compare']) {
      log('  batch dry runs ...')
      // A time window that holds just under 1,000 runs (the batch limit): the newest ones.
      const [edge] = await queryRows(
        `SELECT toString(started_at) AS t FROM ${runIndexNames(getConfig().databases.runs).runs} ORDER BY started_at DESC LIMIT 1 OFFSET 980`,
        {},
        z.object({ t: z.string() }),
      )
      const cases: [string, Parameters<typeof previewBatch>[0]['filter']][] = [
        ['clear: the newest ~980 runs (from=)', { from: new Date(`${edge.t.replace(' ', 'T')}Z`) }],
        [`clear: org=${meta.filters.org}&flag=near_limit`, { org: meta.filters.org, flag: ['near_limit'] }],
      ]
      for (const [name, filter] of cases) {
        const ms: number[] = []
        let last: { items: number; rowsRead: number; maxChMs: number } | null = null
        for (let i = 0; i < 4; i++) {
          const t0 = performance.now()
          const [res, stats] = await withQueryStats(() =>
            previewBatch({ filter, action: 'clear', blockKey: 'checkpoint', reason: 'benchmark', dryRun: true }),
          )
          if (i === 0) continue
          ms.push(performance.now() - t0)
          last = { items: res.items.length, rowsRead: stats?.rowsRead ?? 0, maxChMs: Math.round(stats?.maxChMs ?? 0) }
        }
        batches.push({ case: name, p50Ms: Math.round(quantile(ms, 0.5)), ...last })
        log(
          `    ${name.padEnd(44)} p50 ${Math.round(quantile(ms, 0.5))} ms, ${last?.items} items, ${last?.rowsRead.toLocaleString('en')} rows, longest statement ${last?.maxChMs} ms`,
        )
      }
    }
    await getClient().close()

    // 6. Targets and results.
    const byRoute = (name: string) => results.find((r) => r.route === name)
    const runScoped = results.filter((r) => r.kind === 'run')
    const overRows = runScoped
      .filter((r) => (r.rowsRead ?? 0) > ROWS_READ_LIMIT)
      .map((r) => ({ route: r.route, rowsRead: r.rowsRead }))
    const overRatio = results
      .filter((r) => r.ratio !== null && r.ratio > 1.5)
      .map((r) => ({
        route: r.route,
        ratio: r.ratio,
        overheadMs: Math.round((r.p50Ms - (r.bareP50Ms ?? 0)) * 10) / 10,
      }))
    const pages = longestStatementPerPage(
      results,
      pageRoutes([...new Set(results.filter((r) => r.sample).map((r) => r.sample!))]),
    )
    const overStatement = pages.filter((p) => (p.longestStatementP50Ms ?? 0) > STATEMENT_LIMIT_MS)
    const page1 = byRoute('runs page 1')
    const deepR = results.find((r) => r.route.startsWith('runs deep page'))
    const midR = results.find((r) => r.route.startsWith('runs mid-history'))
    const result = {
      version: 1,
      when: new Date().toISOString(),
      elapsedSec: Math.round((Date.now() - started) / 1000),
      machine: {
        cpus: os.cpus().length,
        cpu: os.cpus()[0]?.model ?? '',
        memGb: Math.round(os.totalmem() / 2 ** 30),
        node: process.version,
        loadAvg: os.loadavg().map((x) => Math.round(x * 100) / 100),
      },
      engine: health?.clickhouseVersion ?? meta.engine,
      scale: {
        runs: meta.runs.total,
        runRows: meta.runs.withRunRow,
        checkpointOnlyRuns: meta.runs.checkpointOnly,
        workingMemoryRows: wmRows,
        tables: meta.rows,
        historyCapture: meta.historyCapture,
      },
      settings: {
        requests,
        warmup,
        server: serverMode,
        quick: values.quick,
        build: buildInfo,
        browserLoads,
        statsFormat: 'FORMAT JSON statistics (LOOM_RUNS_BENCH=1)',
      },
      server: server ? { url: server.url, startMs: server.startMs, rssMb } : null,
      routes: results,
      pages,
      sqlCompare,
      batches,
      browser: browser
        ? {
            runsPageMs: browser.runsPage.visibleMs,
            runPageMs: browser.runPage?.visibleMs ?? null,
            clickToRunMs: browser.clickToRun.ms,
            bigRunPageMs: browser.bigRunPage.visibleMs,
            bigRunInteractiveMs: browser.bigRunPage.interactiveMs,
            bigConversationMs: browser.bigConversation.visibleMs,
            comparePageMs: browser.comparePage?.visibleMs ?? null,
            maxFrameMs: Math.max(
              browser.runsPage.scroll?.maxFrameMs ?? 0,
              browser.bigRunPage.scroll?.maxFrameMs ?? 0,
              browser.bigConversation.scroll?.maxFrameMs ?? 0,
            ),
            maxDomNodes: Math.max(
              browser.runsPage.domNodes,
              browser.runPage?.domNodes ?? 0,
              ...Object.values(browser.bigRunDomNodes),
            ),
            scriptBytesBeforeData: {
              runsPage: browser.runsPage.scriptBytesBeforeVisible,
              runPage: browser.runPage?.scriptBytesBeforeVisible ?? null,
              bigRunPage: browser.bigRunPage.scriptBytesBeforeVisible,
            },
            runsPage: browser.runsPage,
            runPage: browser.runPage,
            clickToRun: browser.clickToRun,
            bigRunPage: browser.bigRunPage,
            bigConversation: browser.bigConversation,
            bigRunDomNodes: browser.bigRunDomNodes,
            comparePage: browser.comparePage,
          }
        : { skipped: browserSkipped, runsPageMs: null, bigRunPageMs: null, maxFrameMs: null },
      targets: {
        runScopedRowsRead: { limit: ROWS_READ_LIMIT, ok: overRows.length === 0, over: overRows },
        apiWithin1_5xBare: { ok: overRatio.length === 0, over: overRatio },
        longestStatementPerPage: {
          limitMs: STATEMENT_LIMIT_MS,
          measure: "median over requests of each request's longest statement",
          ok: overStatement.length === 0,
          over: overStatement,
        },
        deepPageVsPage1: {
          page1P50Ms: page1?.p50Ms ?? null,
          deepP50Ms: deepR?.p50Ms ?? null,
          midP50Ms: midR?.p50Ms ?? null,
          ok: !!page1 && !!deepR && deepR.p50Ms <= page1.p50Ms * 1.5 && (!midR || midR.p50Ms <= page1.p50Ms * 1.5),
        },
        bigRunInteractiveUnder1500ms: browser
          ? {
              ms: browser.bigRunPage.interactiveMs,
              ok: (browser.bigRunPage.interactiveMs ?? Infinity) < 1500,
              timelineTab: browser.bigRunPage.timelineTab,
            }
          : null,
        scrollFramesUnder16ms: browser
          ? {
              maxFrameMs: browser.bigRunPage.scroll?.maxFrameMs ?? null,
              ok: (browser.bigRunPage.scroll?.maxFrameMs ?? Infinity) <= 16.7,
            }
          : null,
      },
      bigRunEvents,
    }
    // What the console costs an agent's checkpoint INSERT (its own process: one engine directory per process).
    log("Measuring the agents' insert path (db:init on a new directory, against the bare table) ...")
    const wp = spawnSync(
      process.execPath,
      [
        ...SERVER_NODE_ARGS,
        path.join(__dirname, 'bench/write-path.ts'),
        '--json',
        '--inserts',
        values.quick ? '60' : '200',
      ],
      {
        cwd: path.resolve(__dirname, '..'),
        encoding: 'utf8',
      },
    )
    const writePath =
      wp.status === 0 ? JSON.parse(wp.stdout.trim().split('\n').pop() ?? 'null') : { error: wp.stderr || wp.stdout }
    Object.assign(result, { writePath })
    fs.mkdirSync(path.dirname(out), { recursive: true })
    fs.writeFileSync(out, `${JSON.stringify(result, null, 2)}\n`)

    console.log(
      `\nLoom Runs benchmark — ${result.scale.runs.toLocaleString('en')} runs, ${wmRows.toLocaleString('en')} working-memory rows, engine ${result.engine}, ${serverMode} server`,
    )
    printTable(results)
    console.log("\nLongest statement per default page (ClickHouse elapsed; median of the requests' longest, max):")
    for (const p of pages) {
      console.log(
        `  ${p.page.padEnd(50)} ${p.longestStatementP50Ms === null ? '—' : `${p.longestStatementP50Ms} ms / max ${p.longestStatementMs} ms (${p.route})`}`,
      )
    }
    if (sqlCompare.length) {
      console.log('\nRuns list SQL, bare (union query vs run index):')
      for (const c of sqlCompare) {
        const u = c.union as { p50Ms: number; bareP50Ms: number; rowsRead: number }
        const i = c.index as { p50Ms: number; bareP50Ms: number; rowsRead: number }
        console.log(
          `  ${String(c.case).padEnd(20)} union ${u.bareP50Ms} ms / ${u.rowsRead.toLocaleString('en')} rows   index ${i.bareP50Ms} ms / ${i.rowsRead.toLocaleString('en')} rows`,
        )
      }
    }
    if (browser) {
      const b = result.browser as {
        runPageMs: number | null
        clickToRunMs: number | null
        bigConversationMs: number | null
        maxDomNodes: number
      }
      console.log(
        `\nBrowser: typical run page goal in ${b.runPageMs} ms; click from the list to the goal ${b.clickToRunMs} ms; huge run's conversation (${browser.bigConversation.turns ?? '?'} turns) first turns in ${b.bigConversationMs} ms; at most ${b.maxDomNodes} DOM elements`,
      )
      console.log(
        `Browser: runs page visible in ${browser.runsPage.visibleMs} ms; huge run page (${bigRunEvents ?? '?'} events, ${browser.bigRunPage.timelineTab ? 'timeline tab' : 'no timeline tab yet'}) visible in ${browser.bigRunPage.visibleMs} ms, interactive ~${browser.bigRunPage.interactiveMs} ms; max frame while scrolling ${result.browser.maxFrameMs} ms`,
      )
    } else console.log(`\nBrowser part skipped: ${browserSkipped}`)
    console.log(
      `\nTargets: rows read ≤ ${ROWS_READ_LIMIT} per run-scoped route: ${result.targets.runScopedRowsRead.ok ? 'met' : `missed by ${overRows.length} route(s)`}; API ≤ 1.5× bare: ${result.targets.apiWithin1_5xBare.ok ? 'met' : `missed by ${overRatio.length} route(s)`}; deep page vs page 1: ${result.targets.deepPageVsPage1.ok ? 'met' : 'missed'}; longest statement per default page ≤ ${STATEMENT_LIMIT_MS} ms: ${result.targets.longestStatementPerPage.ok ? 'met' : `missed by ${overStatement.length} page(s)`}`,
    )
    console.log(`Results: ${path.relative(process.cwd(), out)}`)
  } finally {
    await stopServer()
  }
}

main().catch((err) => {
  console.error(err instanceof Error ? (err.stack ?? err.message) : err)
  process.exit(1)
})
