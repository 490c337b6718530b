import assert from 'node:assert/strict'
import net from 'node:net'
import { test } from 'node:test'
import { call } from './helpers/routes'
import { resetConfig } from '../lib/config'
import { GET as runs } from '../app/api/runs/route'
import { GET as run } from '../app/api/runs/[org]/[namespace]/[agent]/[runId]/route'

/** A loopback port that accepts connections and drops them at once, like a server going away. */
async function droppingServer() {
  const server = net.createServer((socket) => socket.destroy())
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()))
  return server
}

test('remote ClickHouse refusing or dropping connections → 503 on every read route, never a crash', async () => {
  const dropping = await droppingServer()
  const port = (dropping.address() as net.AddressInfo).port
  process.env.CLICKHOUSE_URL = `http://127.0.0.1:${port}`
  process.env.CLICKHOUSE_REQUEST_TIMEOUT_MS = '2000'
  resetConfig()
  try {
    for (const [h, params] of [
      [runs, {}],
      [run, { org: 'o', namespace: 'n', agent: 'a', runId: 'r' }],
    ] as const) {
      const res = await call(h, '/api/runs', params)
      assert.equal(res.status, 503, JSON.stringify(res.body))
      assert.equal(res.body.error.code, 'unavailable')
    }
  } finally {
    await new Promise((r) => dropping.close(r))
  }
  // The same server address now refuses connections.
  const refused = await call(runs, '/api/runs')
  assert.equal(refused.status, 503)
  assert.match(refused.body.error.message, /unreachable/)
})
