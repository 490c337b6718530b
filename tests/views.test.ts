import assert from 'node:assert/strict'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { after, before, describe, test } from 'node:test'
import { useFreshEngine } from './helpers/engine'
import { call } from './helpers/routes'
import { hashPassword } from '../lib/auth/passwords'
import { resetConfig } from '../lib/config'
import { runBegin, runComplete } from '../lib/loom/runs'
import * as wm from '../lib/loom/working-memory'
import { deriveNow } from '../lib/derived/derive'
import { ensureReady } from '../lib/server/ready'
import { checkAlerts, checkView, nextAttemptAt } from '../lib/views/alerts'
import { getView } from '../lib/views/store'
import { GET as list, POST as create } from '../app/api/views/route'
import { DELETE as remove, GET as one, PUT as update } from '../app/api/views/[id]/route'
import { GET as deliveries } from '../app/api/views/[id]/deliveries/route'
import { POST as sendTest } from '../app/api/views/[id]/test/route'

useFreshEngine('views')

const ORIGIN = { origin: 'http://127.0.0.1:3000' }
const ident = { org: 'vw', namespace: 'ns', agent: 'ag', userId: '', sessionId: '' }
const FILTER = { org: 'vw', status: 'failed' }

/** A real webhook receiver on loopback: records every POST; answers with `status` (settable). */
const received: { body: Record<string, unknown>; headers: http.IncomingHttpHeaders }[] = []
let status = 200
const server = http.createServer((req, res) => {
  let text = ''
  req.on('data', (c) => (text += c))
  req.on('end', () => {
    received.push({ body: JSON.parse(text || '{}'), headers: req.headers })
    res.statusCode = status
    res.end('ok')
  })
})
let hookUrl = ''

const post = (body: unknown, headers: Record<string, string> = ORIGIN) =>
  call(create, '/api/views', {}, { method: 'POST', body, headers })
/** A shared view of FILTER with an enabled alert to the test's webhook. */
const postAlerting = (name: string, threshold: number) =>
  post({ name, filter: FILTER, shared: true, alert: { webhook: hookUrl, threshold, enabled: true } })
const put = (id: string, body: unknown, headers: Record<string, string> = ORIGIN) =>
  call(update, `/api/views/${id}`, { id }, { method: 'PUT', body, headers })

async function failedRun(runId: string) {
  await runBegin({ ...ident, runId, goal: `goal ${runId}` })
  await wm.wmSet({ ...ident, runId, blockKey: 'checkpoint' }, 'a', { actor: 'ag', sourceTrace: 'h/p' })
  await runComplete({ org: 'vw', namespace: 'ns', agent: 'ag', runId, status: 'failed' })
}

before(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = (server.address() as AddressInfo).port
  hookUrl = `http://127.0.0.1:${port}/hook`
  process.env.LOOM_RUNS_WEBHOOK_HOSTS = `127.0.0.1:${port}`
  resetConfig()
  await ensureReady()
  await failedRun('f1')
  await failedRun('f2')
  await deriveNow()
})

after(() => {
  server.close()
  delete process.env.LOOM_RUNS_WEBHOOK_HOSTS
  resetConfig()
})

describe('saved views', () => {
  let id = ''
  test('create, list, get, rename and delete a view; /?view= is its link', async () => {
    const res = await post({ name: '  Failed in vw ', filter: { ...FILTER, flag: ['crash_loop'] }, shared: true })
    assert.equal(res.status, 200, JSON.stringify(res.body))
    id = res.body.view.id
    assert.deepEqual(
      [res.body.view.name, res.body.view.owner, res.body.view.shared, res.body.view.alert],
      ['Failed in vw', 'local', true, null],
    )
    assert.deepEqual(res.body.view.filter, { org: 'vw', status: 'failed', flag: ['crash_loop'] })
    const listed = await call(list, '/api/views')
    assert.deepEqual(
      listed.body.views.map((v: { id: string }) => v.id),
      [id],
    )
    const renamed = await put(id, { name: 'Failed imports', filter: FILTER })
    assert.equal(renamed.status, 200, JSON.stringify(renamed.body))
    assert.equal((await call(one, '/x', { id })).body.view.name, 'Failed imports')
    assert.deepEqual((await call(one, '/x', { id })).body.view.filter, FILTER)
    const del = await call(remove, '/x', { id }, { method: 'DELETE', headers: ORIGIN })
    assert.equal(del.status, 200)
    assert.equal((await call(one, '/x', { id })).status, 404)
    assert.deepEqual((await call(list, '/api/views')).body.views, [])
  })

  test('bad input is a 400 naming the field, and writes nothing', async () => {
    const cases: [unknown, string][] = [
      [{ name: 'x'.repeat(81), filter: {} }, 'name'],
      [{ name: '', filter: {} }, 'name'],
      [{ name: 'n', filter: { flag: ['nope'] } }, 'filter.flag'],
      [{ name: 'n', filter: { colour: 'red' } }, 'colour'],
      [{ name: 'n', filter: {}, alert: { webhook: hookUrl, threshold: 0 } }, 'alert.threshold'],
      [{ name: 'n', filter: {}, alert: { webhook: 'http://evil.example/hook', threshold: 1 } }, 'alert.webhook'],
      [{ name: 'n', filter: {}, alert: { webhook: 'file:///etc/passwd', threshold: 1 } }, 'alert.webhook'],
      [
        { name: 'n', filter: {}, alert: { webhook: `${hookUrl.replace('127.0.0.1', 'localhost')}`, threshold: 1 } },
        'alert.webhook',
      ],
    ]
    for (const [body, field] of cases) {
      const res = await post(body)
      assert.equal(res.status, 400, `${JSON.stringify(body)} → ${JSON.stringify(res.body)}`)
      assert.equal(res.body.error.field, field, JSON.stringify(res.body))
    }
    assert.match(
      (await post({ name: 'n', filter: {}, alert: { webhook: 'http://evil.example/hook', threshold: 1 } })).body.error
        .message,
      /alert\.webhook host evil\.example is not in LOOM_RUNS_WEBHOOK_HOSTS/,
    )
    assert.deepEqual((await call(list, '/api/views')).body.views, [])
    assert.equal((await call(one, '/x', { id: 'not-a-uuid' })).body.error.field, 'id')
  })

  test('viewers keep private views; sharing and alerts need an operator; private views stay private', async () => {
    try {
      process.env.LOOM_RUNS_USERS = [
        `vic:viewer:${await hashPassword('viewer pass')}`,
        `oscar:operator:${await hashPassword('operator pass')}`,
      ].join(',')
      resetConfig()
      const vic = { ...ORIGIN, authorization: `Basic ${Buffer.from('vic:viewer pass').toString('base64')}` }
      const oscar = { ...ORIGIN, authorization: `Basic ${Buffer.from('oscar:operator pass').toString('base64')}` }
      const mine = await post({ name: 'mine', filter: FILTER }, vic)
      assert.equal(mine.status, 200, JSON.stringify(mine.body))
      assert.equal((await post({ name: 'shared', filter: FILTER, shared: true }, vic)).status, 403)
      assert.equal(
        (await post({ name: 'alerting', filter: FILTER, alert: { webhook: hookUrl, threshold: 1 } }, vic)).status,
        403,
      )
      assert.equal((await put(mine.body.view.id, { shared: true }, vic)).status, 403)
      assert.equal((await put(mine.body.view.id, { name: 'still mine' }, vic)).status, 200)
      // Oscar cannot see, change or delete Vic's private view.
      assert.equal((await call(one, '/x', { id: mine.body.view.id }, { headers: oscar })).status, 404)
      assert.equal((await put(mine.body.view.id, { name: 'taken' }, oscar)).status, 404)
      assert.deepEqual((await call(list, '/api/views', {}, { headers: oscar })).body.views, [])
      const shared = await post({ name: 'team', filter: FILTER, shared: true }, oscar)
      assert.equal(shared.status, 200)
      assert.deepEqual(
        (await call(list, '/api/views', {}, { headers: vic })).body.views.map((v: { name: string }) => v.name),
        ['still mine', 'team'],
      )
      assert.equal((await put(shared.body.view.id, { name: 'renamed by a viewer' }, vic)).status, 403)
      for (const v of [mine.body.view.id, shared.body.view.id])
        await call(remove, '/x', { id: v }, { method: 'DELETE', headers: v === mine.body.view.id ? vic : oscar })
    } finally {
      delete process.env.LOOM_RUNS_USERS
      resetConfig()
    }
  })
})

describe('alerts', () => {
  test('a view over its threshold with new runs is delivered to the webhook once; new runs send again; tests go at once', async () => {
    const res = await postAlerting('Failed in vw', 2)
    assert.equal(res.status, 200, JSON.stringify(res.body))
    const id = res.body.view.id
    received.length = 0
    const t0 = new Date()
    assert.equal(await checkAlerts(t0), 1)
    assert.equal(received.length, 1)
    const p = received[0].body as {
      view: { id: string; name: string; href: string }
      count: number
      newRuns: { runId: string; href: string; flags: string[] }[]
      text: string
      at: string
    }
    assert.deepEqual([p.view.id, p.view.name, p.count], [id, 'Failed in vw', 2])
    assert.match(p.view.href, new RegExp(`/\\?view=${id}$`))
    assert.deepEqual(p.newRuns.map((r) => r.runId).sort(), ['f1', 'f2'])
    assert.match(p.newRuns[0].href, /\/runs\/vw\/ns\/ag\/f[12]$/)
    assert.match(p.text, /^Loom Runs: 2 runs match "Failed in vw" \(2 new: f[12], f[12]\) http/)
    assert.equal(received[0].headers['content-type'], 'application/json')
    // Nothing new: nothing sent, even a minute later.
    assert.equal(await checkAlerts(new Date(t0.getTime() + 120_000)), 0)
    // A new failed run: sent again, with only it as new, but not within the minute.
    await failedRun('f3')
    await deriveNow()
    assert.equal(await checkAlerts(new Date(t0.getTime() + 30_000)), 0)
    assert.equal(await checkAlerts(new Date(t0.getTime() + 180_000)), 1)
    assert.deepEqual(
      (received[1].body as typeof p).newRuns.map((r) => r.runId),
      ['f3'],
    )
    assert.equal((received[1].body as typeof p).count, 3)
    // A test goes at once, whatever the threshold and the minute.
    const tested = await call(sendTest, '/x', { id }, { method: 'POST', headers: ORIGIN })
    assert.equal(tested.status, 200, JSON.stringify(tested.body))
    assert.equal(tested.body.delivery.ok, true)
    assert.equal(received.length, 3)
    const listed = await call(deliveries, '/x', { id })
    // Newest first by their times (the checks above ran on a clock set minutes ahead, the test on the real one).
    assert.deepEqual(
      listed.body.deliveries.map((d: { kind: string; ok: boolean; status: number; count: number }) => [
        d.kind,
        d.ok,
        d.status,
        d.count,
      ]),
      [
        ['alert', true, 200, 3],
        ['test', true, 200, 3],
        ['alert', true, 200, 2],
      ],
    )
    await call(remove, '/x', { id }, { method: 'DELETE', headers: ORIGIN })
  })

  test('a failing webhook is retried with backoff, never more than once a minute, until delivered', async () => {
    const res = await postAlerting('Retry', 1)
    const id = res.body.view.id
    const view = await getView(id, { name: 'local', role: 'operator' })
    status = 500
    received.length = 0
    const t0 = Date.now() + 10 * 60_000
    const at = (s: number) => new Date(t0 + s * 1000)
    assert.equal((await checkView(view, at(0)))?.ok, false)
    assert.equal(await checkView(view, at(30)), null, 'not within a minute')
    assert.equal((await checkView(view, at(61)))?.ok, false)
    // Two failures in a row: the next attempt waits two minutes.
    assert.equal(await checkView(view, at(121)), null)
    status = 200
    const ok = await checkView(view, at(182))
    assert.equal(ok?.ok, true)
    assert.equal(received.length, 3)
    const history = (await call(deliveries, '/x', { id })).body.deliveries as {
      ok: boolean
      status: number
      error?: string
    }[]
    assert.deepEqual(
      history.map((d) => [d.ok, d.status]),
      [
        [true, 200],
        [false, 500],
        [false, 500],
      ],
    )
    assert.equal(history[1].error, 'the webhook answered 500')
    assert.equal(nextAttemptAt([]), 0)
    await call(remove, '/x', { id }, { method: 'DELETE', headers: ORIGIN })
  })

  test('a webhook host removed from the list is not called, even for a saved view; a view without an alert cannot be tested', async () => {
    const res = await postAlerting('Gone', 1)
    const id = res.body.view.id
    const before = received.length
    try {
      process.env.LOOM_RUNS_WEBHOOK_HOSTS = 'hooks.example.com'
      resetConfig()
      const tested = await call(sendTest, '/x', { id }, { method: 'POST', headers: ORIGIN })
      assert.equal(tested.body.delivery.ok, false)
      assert.match(
        tested.body.delivery.error,
        /not sent: the webhook host 127\.0\.0\.1:\d+ is not in LOOM_RUNS_WEBHOOK_HOSTS/,
      )
      assert.equal(received.length, before)
    } finally {
      process.env.LOOM_RUNS_WEBHOOK_HOSTS = new URL(hookUrl).host
      resetConfig()
    }
    const plain = await post({ name: 'No alert', filter: FILTER })
    const none = await call(sendTest, '/x', { id: plain.body.view.id }, { method: 'POST', headers: ORIGIN })
    assert.equal(none.status, 400)
    assert.equal(none.body.error.field, 'alert')
  })
})
