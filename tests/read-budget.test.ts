/**
 * Per-viewer read budgets: one viewer's burst of reads runs a few at a time and is refused past a
 * short line, so another viewer's read is answered among the burst's first reads, not after all of it.
 */
import assert from 'node:assert/strict'
import { before, test } from 'node:test'
import { hashPassword } from '../lib/auth/passwords'
import { resetConfig } from '../lib/config'
import { wmSet } from '../lib/loom/working-memory'
import {
  READS_AT_ONCE_PER_VIEWER,
  READS_WAITING_PER_VIEWER,
  readBudgetStats,
  resetReadBudgetStats,
  withinReadBudget,
} from '../lib/server/read-budget'
import { peerStamp, PEER_HEADER } from '../lib/net/peer'
import { ensureReady } from '../lib/server/ready'
import { useFreshEngine } from './helpers/engine'
import { call } from './helpers/routes'
import { apiRoutes as routes } from './helpers/api-routes'

useFreshEngine('read-budget', { LOOM_RUNS_SESSION_SECRET: 'a-test-secret-that-is-at-least-32-characters' })

const basic = (name: string, password: string) => `Basic ${Buffer.from(`${name}:${password}`).toString('base64')}`
const from = (ip: string, authorization: string) => ({
  host: '127.0.0.1:3000',
  [PEER_HEADER]: peerStamp({ address: ip, localPort: 3000, encrypted: false }),
  authorization,
})

before(async () => {
  process.env.LOOM_RUNS_USERS = [
    `olga:viewer:${await hashPassword('olga-secret')}`,
    `victor:viewer:${await hashPassword('victor-secret')}`,
  ].join(',')
  resetConfig()
  await ensureReady()
  for (let i = 0; i < 20; i++) {
    await wmSet(
      { org: 'o', namespace: 'n', agent: 'a', runId: `r-${i}`, blockKey: 'checkpoint', userId: '', sessionId: '' },
      `v-${i}`,
      { actor: 'a', sourceTrace: 't' },
    )
  }
})

test("one viewer's burst runs a few at a time and is refused past its line; another viewer reads among its first answers", async () => {
  const olga = from('10.1.0.1', basic('olga', 'olga-secret'))
  const victor = from('10.1.0.2', basic('victor', 'victor-secret'))
  // Both sign in once, so neither burst waits on a password check.
  assert.equal((await call(routes.runs, '/api/runs', {}, { headers: olga })).status, 200)
  assert.equal((await call(routes.runs, '/api/runs', {}, { headers: victor })).status, 200)
  resetReadBudgetStats()

  const finished: string[] = []
  // Each read is different (no shared answer): 60 list searches.
  const burst = Array.from({ length: 60 }, (_, i) =>
    call(routes.runs, `/api/runs?q=${encodeURIComponent(`needle-${i}`)}`, {}, { headers: olga }).then((r) => {
      if (r.status === 200) finished.push('olga')
      return r
    }),
  )
  const read = call(routes.runs, '/api/runs?q=r-1', {}, { headers: victor }).then((r) => {
    finished.push('victor')
    return r
  })
  const answers = await Promise.all(burst)
  const answered = await read

  assert.equal(answered.status, 200)
  assert.ok(answered.body.runs.length > 0)
  const ok = answers.filter((r) => r.status === 200)
  const refused = answers.filter((r) => r.status === 429)
  assert.equal(ok.length, READS_AT_ONCE_PER_VIEWER + READS_WAITING_PER_VIEWER)
  assert.equal(refused.length, 60 - ok.length)
  assert.equal(refused[0].headers['retry-after'], '1')
  assert.match(refused[0].body.error.message, /Too many reads at once for olga/)
  assert.equal(readBudgetStats().maxRunning, READS_AT_ONCE_PER_VIEWER)
  // The other viewer waited behind a few of the burst's reads, not behind the whole burst.
  const place = finished.indexOf('victor')
  assert.ok(place <= 2 * READS_AT_ONCE_PER_VIEWER, `victor's read finished after ${place} of olga's`)
})

test('a read cancelled while it waits leaves the line without running', async () => {
  const gates: (() => void)[] = []
  const running = Array.from({ length: READS_AT_ONCE_PER_VIEWER }, () =>
    withinReadBudget('tess', undefined, () => new Promise<string>((resolve) => gates.push(() => resolve('ran')))),
  )
  const controller = new AbortController()
  let ran = false
  const waiting = withinReadBudget('tess', controller.signal, async () => {
    ran = true
    return 'late'
  })
  const after = withinReadBudget('tess', undefined, async () => 'next')
  controller.abort()
  await assert.rejects(waiting, { name: 'AbortError' })
  for (const open of gates) open()
  assert.deepEqual(await Promise.all(running), Array(READS_AT_ONCE_PER_VIEWER).fill('ran'))
  assert.equal(await after, 'next')
  assert.equal(ran, false)
})
