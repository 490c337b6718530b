import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import path from 'node:path'
import { test } from 'node:test'
import { SERVER_NODE_ARGS } from '../scripts/server-node'

const ROOT = path.join(__dirname, '..')

/** The modules through which everything that reads ClickHouse, the configuration or a session passes. */
const DOORS = [
  'lib/config.ts',
  'lib/clickhouse/client.ts',
  'lib/clickhouse/query.ts',
  'lib/auth/session.ts',
  'lib/http/handler.ts',
  'lib/queries/runs.ts',
]

function load(file: string, args: readonly string[]) {
  const script = `import('${path.join(ROOT, file).replace(/\\/g, '/')}').then(() => console.log('loaded'))`
  return spawnSync(process.execPath, [...args, '-e', script], { cwd: ROOT, encoding: 'utf8', timeout: 60_000 })
}

test('server modules refuse to load where client code runs, and load on the server', () => {
  for (const file of DOORS) {
    const outside = load(file, ['--import', 'tsx'])
    assert.notEqual(outside.status, 0, `${file} loaded without the react-server condition`)
    assert.match(outside.stderr, /cannot be imported from a Client Component/, file)
    const inside = load(file, SERVER_NODE_ARGS)
    assert.equal(inside.status, 0, `${file}: ${inside.stderr}`)
    assert.equal(inside.stdout.trim(), 'loaded', file)
  }
})

test('scripts that run under the react-server condition load everything they import', () => {
  // The benchmark's browser part lists the run page's tabs; React's server build has no client hooks.
  for (const file of ['scripts/bench/browser.ts', 'scripts/bench/browser-journeys.ts', 'scripts/bench/routes.ts']) {
    const r = load(file, SERVER_NODE_ARGS)
    assert.equal(r.status, 0, `${file}: ${r.stderr}`)
    assert.equal(r.stdout.trim().split('\n').pop(), 'loaded', file)
  }
})
