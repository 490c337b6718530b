import assert from 'node:assert/strict'
import { before, describe, test } from 'node:test'
import { hashPassword } from '../lib/auth/passwords'
import { useFreshEngine } from './helpers/engine'
import { call } from './helpers/routes'

useFreshEngine('api-auth', {
  LOOM_RUNS_USERS: `olga:operator:${hashPassword('op-secret')},victor:viewer:${hashPassword('view-secret')}`,
  LOOM_RUNS_SESSION_SECRET: 'a-test-secret-that-is-at-least-32-characters',
})

const BLOCK = { org: 'o', namespace: 'n', agent: 'a', runId: 'r1', blockKey: 'checkpoint' }
let routes: Awaited<ReturnType<typeof load>>

async function load() {
  const login = await import('../app/api/auth/login/route')
  const runs = await import('../app/api/runs/route')
  const block = await import('../app/api/runs/[org]/[namespace]/[agent]/[runId]/blocks/[blockKey]/route')
  const audit = await import('../app/api/runs/[org]/[namespace]/[agent]/[runId]/audit/route')
  return { login: login.POST, runs: runs.GET, put: block.PUT, audit: audit.GET }
}

async function loginAs(name: string, password: string, ip = '10.0.0.1') {
  const { NextRequest } = await import('next/server')
  const req = new NextRequest('http://127.0.0.1:3000/api/auth/login', {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': ip },
    body: JSON.stringify({ name, password }),
  })
  const res = await routes.login(req, { params: Promise.resolve({}) })
  return { status: res.status, cookie: res.headers.get('set-cookie') ?? '' }
}

const cookieOf = (setCookie: string) => setCookie.split(';')[0]

before(async () => {
  const { ensureReady } = await import('../lib/server/ready')
  await ensureReady()
  const { wmSet } = await import('../lib/loom/working-memory')
  await wmSet({ ...BLOCK, userId: '', sessionId: '' }, 'v1', { actor: 'a', sourceTrace: 't' })
  routes = await load()
})

describe('with users configured', () => {
  test('no login → 401 on reads and writes', async () => {
    const read = await call(routes.runs, '/api/runs')
    assert.equal(read.status, 401)
    assert.equal(read.body.error.code, 'unauthorized')
    const write = await call(routes.put, '/x', BLOCK, { method: 'PUT', body: { content: 'x', expectedVersion: '1', reason: 'r' } })
    assert.equal(write.status, 401)
  })

  test('the session cookie is HttpOnly and SameSite=Strict; a wrong password is 401', async () => {
    const bad = await loginAs('olga', 'nope', '10.0.0.2')
    assert.equal(bad.status, 401)
    const ok = await loginAs('olga', 'op-secret', '10.0.0.2')
    assert.equal(ok.status, 200)
    assert.match(ok.cookie, /HttpOnly/i)
    assert.match(ok.cookie, /SameSite=Strict/i)
    assert.doesNotMatch(ok.cookie, /op-secret/)
  })

  test('a viewer reads but cannot write (403); an operator writes and the audit names them', async () => {
    const viewer = cookieOf((await loginAs('victor', 'view-secret', '10.0.0.3')).cookie)
    const read = await call(routes.runs, '/api/runs', {}, { headers: { cookie: viewer } })
    assert.equal(read.status, 200)
    const denied = await call(routes.put, '/x', BLOCK, { method: 'PUT', body: { content: 'x', expectedVersion: '1', reason: 'r' }, headers: { cookie: viewer } })
    assert.equal(denied.status, 403)
    const operator = cookieOf((await loginAs('olga', 'op-secret', '10.0.0.3')).cookie)
    const done = await call(routes.put, '/x', BLOCK, { method: 'PUT', body: { content: 'x', expectedVersion: '1', reason: 'fix' }, headers: { cookie: operator } })
    assert.equal(done.status, 200, JSON.stringify(done.body))
    assert.equal(done.body.block.actor, 'operator:olga')
    const audit = await call(routes.audit, '/x', { ...BLOCK }, { headers: { cookie: operator } })
    assert.equal(audit.body.entries[0].operator, 'olga')
  })

  test('a forged or tampered cookie is refused', async () => {
    const operator = cookieOf((await loginAs('olga', 'op-secret', '10.0.0.4')).cookie)
    const [name, value] = operator.split('=')
    const [payload, sig] = value.split('.')
    const forgedPayload = Buffer.from(JSON.stringify({ n: 'olga', r: 'operator', e: Date.now() + 1e9 })).toString('base64url')
    for (const cookie of [`${name}=${forgedPayload}.${sig}`, `${name}=${payload}.${sig.slice(0, -2)}xx`]) {
      const res = await call(routes.runs, '/api/runs', {}, { headers: { cookie } })
      assert.equal(res.status, 401)
    }
  })

  test('login attempts are rate limited per client', async () => {
    const statuses: number[] = []
    for (let i = 0; i < 12; i++) statuses.push((await loginAs('olga', 'wrong', '10.9.9.9')).status)
    assert.deepEqual(statuses.slice(0, 10), Array(10).fill(401))
    assert.equal(statuses[11], 429)
  })
})
