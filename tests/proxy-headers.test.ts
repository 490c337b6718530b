import assert from 'node:assert/strict'
import { test } from 'node:test'
import { NextRequest } from 'next/server'
import { peerStamp, PEER_HEADER } from '../lib/net/peer'
import { proxy } from '../proxy'
import { useFreshEngine } from './helpers/engine'

// One trusted proxy in front, on loopback, as a reverse proxy on the same machine would be.
useFreshEngine('proxy-headers', { LOOM_RUNS_TRUSTED_PROXIES: '1', LOOM_RUNS_ALLOWED_HOSTS: 'loom.example.com' })

async function run(headers: Record<string, string>, path = '/') {
  const req = new NextRequest(new URL(path, 'http://127.0.0.1:3000'), {
    headers: { [PEER_HEADER]: peerStamp({ address: '127.0.0.1', localPort: 3000, encrypted: false }), ...headers },
  })
  return proxy(req)
}

test('HSTS only when the nearest trusted proxy says the request came over TLS', async () => {
  const tls = await run({ host: '127.0.0.1:3000', 'x-forwarded-for': '127.0.0.1', 'x-forwarded-proto': 'https' })
  assert.equal(tls.headers.get('strict-transport-security'), 'max-age=31536000')
  const plain = await run({ host: '127.0.0.1:3000', 'x-forwarded-for': '127.0.0.1', 'x-forwarded-proto': 'http' })
  assert.equal(plain.headers.get('strict-transport-security'), null)
  // The client wrote "https" itself; the proxy appended what it saw: http.
  const forged = await run({
    host: '127.0.0.1:3000',
    'x-forwarded-for': '127.0.0.1',
    'x-forwarded-proto': 'https, http',
  })
  assert.equal(forged.headers.get('strict-transport-security'), null)
})

test('every answer gets a CSP with a fresh nonce; a foreign Host gets 421 before anything else', async () => {
  const a = await run({ host: 'loom.example.com', 'x-forwarded-for': '127.0.0.1' }, '/api/health')
  const b = await run({ host: 'loom.example.com', 'x-forwarded-for': '127.0.0.1' }, '/api/health')
  const nonce = (r: Response) => /'nonce-([^']+)'/.exec(r.headers.get('content-security-policy') ?? '')?.[1]
  assert.ok(nonce(a))
  assert.notEqual(nonce(a), nonce(b))
  const foreign = await run({ host: 'rebind.example:3000' }, '/api/health')
  assert.equal(foreign.status, 421)
})

test('no users: a page for a client forwarded from off loopback goes to nobody (login), a loopback one is served', async () => {
  const off = await run({ host: '127.0.0.1:3000', 'x-forwarded-for': '203.0.113.5' })
  assert.equal(off.status, 307)
  assert.match(off.headers.get('location') ?? '', /\/login\?next=%2F/)
  const on = await run({ host: '127.0.0.1:3000', 'x-forwarded-for': '127.0.0.1' })
  assert.equal(on.headers.get('x-middleware-next'), '1')
})
