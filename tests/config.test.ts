import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import path from 'node:path'
import { test } from 'node:test'
import { ConfigError, parseConfig } from '../lib/config'
import { SERVER_NODE_ARGS } from '../scripts/server-node'

test('defaults: embedded mode, demo on, loopback, standard database names', () => {
  const c = parseConfig({})
  assert.equal(c.mode, 'embedded')
  assert.equal(c.dataDir, '.data/embedded')
  assert.equal(c.demo, true)
  assert.equal(c.readOnly, false)
  assert.deepEqual(c.databases, { loom: 'loom', telemetry: 'loom_telemetry', runs: 'loom_runs' })
  assert.equal(c.host, '127.0.0.1')
  assert.equal(c.port, 3000)
})

test('remote mode never writes demo data, whatever LOOM_RUNS_DEMO says', () => {
  const c = parseConfig({ CLICKHOUSE_URL: 'https://ch.example.com:8443', LOOM_RUNS_DEMO: '1' })
  assert.equal(c.mode, 'remote')
  assert.equal(c.demo, false)
})

test('each bad value is named in the error', () => {
  const cases: [Record<string, string>, RegExp][] = [
    [{ CLICKHOUSE_URL: 'not a url' }, /CLICKHOUSE_URL/],
    [{ CLICKHOUSE_URL: 'ftp://x' }, /CLICKHOUSE_URL/],
    [{ PORT: '70000' }, /PORT/],
    [{ PORT: 'abc' }, /PORT/],
    [{ LOOM_RUNS_DEMO: 'yes' }, /LOOM_RUNS_DEMO: must be 0 or 1/],
    [{ LOOM_RUNS_READ_ONLY: 'true' }, /LOOM_RUNS_READ_ONLY/],
    [{ LOOM_DATABASE: 'loom; DROP TABLE x' }, /LOOM_DATABASE: must be a plain ClickHouse identifier/],
    [{ LOOM_RUNS_USERS: 'alice:admin:scrypt$a$b' }, /LOOM_RUNS_USERS entry 1/],
    [{ LOOM_RUNS_SESSION_SECRET: 'short' }, /LOOM_RUNS_SESSION_SECRET/],
  ]
  for (const [env, pattern] of cases) {
    assert.throws(
      () => parseConfig(env),
      (err: unknown) => err instanceof ConfigError && pattern.test(err.message),
      JSON.stringify(env),
    )
  }
})

test('the server refuses a non-loopback address when no users are configured', () => {
  const script = `import('${path.join(__dirname, '..', 'lib', 'startup', 'start.ts').replace(/\\/g, '/')}').then((m) => (m.startServer ?? m.default.startServer)())`
  const r = spawnSync(process.execPath, [...SERVER_NODE_ARGS, '-e', script], {
    env: { ...process.env, HOST: '0.0.0.0', LOOM_RUNS_USERS: '', CLICKHOUSE_URL: 'http://127.0.0.1:9' },
    encoding: 'utf8',
    timeout: 30_000,
  })
  assert.equal(r.status, 1)
  assert.match(r.stderr, /Refusing to listen on 0\.0\.0\.0: no users are configured/)
})

test('a bad configuration stops the server with the message', () => {
  const script = `import('${path.join(__dirname, '..', 'lib', 'startup', 'start.ts').replace(/\\/g, '/')}').then((m) => (m.startServer ?? m.default.startServer)())`
  const r = spawnSync(process.execPath, [...SERVER_NODE_ARGS, '-e', script], {
    env: { ...process.env, PORT: 'eighty' },
    encoding: 'utf8',
    timeout: 30_000,
  })
  assert.equal(r.status, 1)
  assert.match(r.stderr, /Invalid configuration/)
  assert.match(r.stderr, /PORT/)
})
