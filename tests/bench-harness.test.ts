/**
 * The benchmark harness end to end at a tiny scale (2,000 runs, 2 requests per route, route
 * handlers in-process, no browser): seeds its own data directory, measures every route, and
 * writes results that have the documented shape. Checks the shape, never the timings.
 */
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { test } from 'node:test'
import { SERVER_NODE_ARGS } from '../scripts/server-node'

const ROOT = path.resolve(__dirname, '..')

test('bench harness: tiny run, well-formed results', { timeout: 180_000 }, () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'loom-runs-bench-'))
  const dataDir = path.join(dir, 'data')
  const out = path.join(dir, 'results.json')
  const env: NodeJS.ProcessEnv = { ...process.env, NEXT_TELEMETRY_DISABLED: '1' }
  delete env.CLICKHOUSE_URL
  const run = spawnSync(
    process.execPath,
    [
      ...SERVER_NODE_ARGS,
      'scripts/bench.ts',
      '--scale',
      '2000',
      '--data-dir',
      dataDir,
      '--out',
      out,
      '--requests',
      '2',
      '--warmup',
      '1',
      '--server',
      'in-process',
      '--no-browser',
    ],
    { cwd: ROOT, env, encoding: 'utf8', timeout: 170_000 },
  )
  assert.equal(run.status, 0, `bench failed:\n${run.stdout}\n${run.stderr}`)
  assert.ok(fs.existsSync(`${dataDir}.seed.json`), 'the seed wrote its sidecar')

  const r = JSON.parse(fs.readFileSync(out, 'utf8'))
  assert.equal(r.version, 1)
  assert.equal(r.scale.runs, 2000)
  assert.ok(r.scale.checkpointOnlyRuns > 0 && r.scale.runRows > 0)
  assert.equal(r.scale.runRows + r.scale.checkpointOnlyRuns, r.scale.runs)
  assert.ok(Number.isInteger(r.scale.workingMemoryRows) && r.scale.workingMemoryRows > 10_000)
  assert.match(r.engine, /^\d+\.\d+/)

  const names: string[] = r.routes.map((x: { route: string }) => x.route)
  for (const want of [
    'runs page 1',
    'runs deep page',
    'runs mid-history',
    'runs org=',
    'runs status=',
    'runs status=unknown',
    'runs q=',
  ]) {
    assert.ok(
      names.some((n) => n.startsWith(want)),
      `route ${want} measured`,
    )
  }
  for (const kind of [
    'run',
    'blocks',
    'block versions',
    'replay preview',
    'timeline',
    'conversations',
    'memories',
    'searches',
  ]) {
    assert.ok(
      names.some((n) => n.startsWith(`${kind} (huge run)`)),
      `${kind} of the huge run measured`,
    )
    assert.ok(
      names.some((n) => n.startsWith(`${kind} (typical run)`)),
      `${kind} of a typical run measured`,
    )
  }
  for (const x of r.routes) {
    assert.equal(typeof x.route, 'string')
    assert.ok(['list', 'run'].includes(x.kind))
    assert.equal(x.errors, 0, `${x.route} answered ${x.status}`)
    assert.equal(x.requests, 2)
    for (const k of ['p50Ms', 'p95Ms', 'bareP50Ms', 'queryP50Ms', 'ratio'])
      assert.ok(Number.isFinite(x[k]) && x[k] >= 0, `${x.route}.${k} = ${x[k]}`)
    assert.ok(x.p95Ms >= x.p50Ms)
    assert.ok(Number.isInteger(x.rowsRead) && x.rowsRead >= 0 && x.rowsReadMax >= x.rowsRead, `${x.route}.rowsRead`)
    assert.ok(Number.isInteger(x.queries) && x.queries >= 1, `${x.route}.queries`)
  }
  assert.ok(r.routes.find((x: { route: string }) => x.route.startsWith('runs page 1')).rowsRead > 0)
  assert.ok(r.bigRunEvents > 1000, 'the huge run has a long timeline')

  assert.deepEqual(
    r.sqlCompare.map((c: { case: string }) => c.case),
    ['page 1', 'deep page (cursor)', 'status=unknown'],
  )
  for (const c of r.sqlCompare)
    for (const s of ['union', 'index']) assert.ok(Number.isFinite(c[s].bareP50Ms) && c[s].rowsRead > 0)

  assert.equal(r.browser.skipped, '--no-browser')
  for (const k of ['runsPageMs', 'bigRunPageMs', 'maxFrameMs']) assert.ok(k in r.browser)
  for (const k of ['runScopedRowsRead', 'apiWithin1_5xBare', 'deepPageVsPage1', 'longestStatementPerPage'])
    assert.equal(typeof r.targets[k].ok, 'boolean')
  // Per default page, the longest statement its requests issued (and which request).
  assert.ok(r.pages.some((p: { page: string }) => p.page === 'runs page'))
  assert.ok(r.pages.some((p: { page: string }) => p.page.startsWith('run page, checkpoint tab')))
  for (const p of r.pages)
    assert.ok(
      Number.isFinite(p.longestStatementMs) && p.longestStatementMs >= 0 && typeof p.route === 'string',
      `${p.page} longest statement`,
    )
  fs.rmSync(dir, { recursive: true, force: true })
})
