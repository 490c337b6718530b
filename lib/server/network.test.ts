import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { safeNextPath } from '../auth/next-path'
import { gateDecision } from './gate'
import * as net from '../net/network'

describe('loopback addresses', () => {
  test('127.0.0.0/8, ::1 and IPv4-mapped loopback are loopback', () => {
    for (const a of [
      '127.0.0.1',
      '127.0.0.2',
      '127.255.255.254',
      '::1',
      '::ffff:127.0.0.1',
      '[::1]',
      '0:0:0:0:0:0:0:1',
    ]) {
      assert.equal(net.isLoopbackAddress(a), true, a)
    }
  })
  test('everything else is not, including look-alikes and nothing', () => {
    for (const a of [
      '10.0.0.1',
      '192.168.1.2',
      '0.0.0.0',
      '::',
      '::ffff:10.0.0.1',
      '128.0.0.1',
      '127.0.0.1.evil',
      'localhost',
      '',
      null,
      undefined,
    ]) {
      assert.equal(net.isLoopbackAddress(a), false, String(a))
    }
  })
})

describe('allowed hosts', () => {
  const allowed = net.allowedHosts(3000, ['loom.example.com', 'Console.Internal:8443'])
  test('the loopback names on the console port, and the configured names', () => {
    for (const h of [
      '127.0.0.1:3000',
      'localhost:3000',
      'LOCALHOST:3000',
      '[::1]:3000',
      'loom.example.com',
      'loom.example.com:80',
      'loom.example.com:443',
      'console.internal:8443',
    ]) {
      assert.equal(net.isHostAllowed(h, allowed), true, h)
    }
  })
  test('a rebound name, another port, or garbage is refused', () => {
    for (const h of [
      'rebind.example:3000',
      'rebind.example',
      '127.0.0.1:3001',
      'localhost',
      '127.0.0.1',
      'loom.example.com:3000',
      'console.internal',
      'a b',
      'evil.com@127.0.0.1:3000',
      '',
      null,
    ]) {
      assert.equal(net.isHostAllowed(h, allowed), false, String(h))
    }
  })
  test('normalizeHost drops the default port and refuses what is not a host', () => {
    assert.equal(net.normalizeHost('Example.COM:80'), 'example.com')
    assert.equal(net.normalizeHost('example.com:443', 443), 'example.com')
    assert.equal(net.normalizeHost('[::1]:3000'), '[::1]:3000')
    assert.equal(net.normalizeHost('example.com:99999'), null)
    assert.equal(net.normalizeHost('http://example.com'), null)
  })
  test('isLoopbackHost names only loopback names', () => {
    assert.equal(net.isLoopbackHost('localhost:3000'), true)
    assert.equal(net.isLoopbackHost('127.0.0.1:3000'), true)
    assert.equal(net.isLoopbackHost('[::1]:3000'), true)
    assert.equal(net.isLoopbackHost('loom.example.com'), false)
    assert.equal(net.isLoopbackHost('127.0.0.1.nip.io:3000'), false)
  })
  test('an Origin is compared with the allowed hosts, not with the Host header', () => {
    assert.equal(net.isOriginAllowed('http://127.0.0.1:3000', allowed), true)
    assert.equal(net.isOriginAllowed('https://loom.example.com', allowed), true)
    assert.equal(net.isOriginAllowed('http://rebind.example:3000', allowed), false)
    assert.equal(net.isOriginAllowed('null', allowed), false)
    assert.equal(net.isOriginAllowed('file://', allowed), false)
  })
})

describe('client address', () => {
  test('with no trusted proxy it is the socket peer, whatever X-Forwarded-For says', () => {
    assert.equal(net.clientAddress('127.0.0.1', '203.0.113.9', 0), '127.0.0.1')
    assert.equal(net.clientAddress('10.0.0.5', null, 0), '10.0.0.5')
  })
  test('behind N proxies it is the entry N hops from the right; entries the client wrote are ignored', () => {
    // client forged "1.1.1.1", proxy appended the real client 203.0.113.9, socket peer is the proxy
    assert.equal(net.clientAddress('10.0.0.2', '1.1.1.1, 203.0.113.9', 1), '203.0.113.9')
    assert.equal(net.clientAddress('10.0.0.3', '1.1.1.1, 203.0.113.9, 10.0.0.2', 2), '203.0.113.9')
    assert.equal(net.clientAddress('10.0.0.2', null, 1), '10.0.0.2')
  })
  test('TLS is believed from the socket, or from the nearest trusted proxy only', () => {
    assert.equal(net.isSecureRequest(true, null, 0), true)
    assert.equal(net.isSecureRequest(false, 'https', 0), false)
    assert.equal(net.isSecureRequest(false, 'http, https', 1), true)
    assert.equal(net.isSecureRequest(false, 'https, http', 1), false)
  })
})

describe('the request gate', () => {
  const noUsers = { users: [], allowedHosts: [], trustedProxies: 0, port: 3000 }
  const withUsers = {
    ...noUsers,
    users: [{ name: 'a', role: 'viewer' as const, secret: 'x' }],
    allowedHosts: ['loom.example.com'],
  }
  /** A direct request from loopback to 127.0.0.1:3000, with no forwarding header, unless `over` says otherwise. */
  const request = (over: Partial<Parameters<typeof gateDecision>[0]> = {}) => ({
    remoteAddress: '127.0.0.1',
    localPort: 3000,
    host: '127.0.0.1:3000',
    forwardedFor: undefined,
    ...over,
  })
  test('no users: a loopback client on an allowed host passes', () => {
    assert.deepEqual(gateDecision(request(), noUsers), { ok: true })
    assert.deepEqual(
      gateDecision(request({ remoteAddress: '::ffff:127.0.0.1', localPort: 4100, host: 'localhost:4100' }), noUsers),
      { ok: true },
    )
  })
  test('no users: a client off loopback is refused whatever the bind address, even with a loopback Host or X-Forwarded-For', () => {
    for (const remoteAddress of ['10.1.2.3', '192.168.0.7', '::ffff:172.16.0.1', '2001:db8::1']) {
      const d = gateDecision(request({ remoteAddress, forwardedFor: '127.0.0.1' }), noUsers)
      assert.equal(d.ok, false, remoteAddress)
      assert.equal(!d.ok && d.status, 403)
    }
  })
  test('no users: a loopback request that came through a proxy or tunnel (a forwarding header) is refused', () => {
    const d = gateDecision(request({ forwardedFor: '127.0.0.1', forwarded: true }), noUsers)
    assert.equal(!d.ok && d.status, 403)
    assert.match(!d.ok ? d.message : '', /proxy or tunnel needs users/)
    const withThem = gateDecision(
      request({ host: 'loom.example.com', forwardedFor: '127.0.0.1', forwarded: true }),
      withUsers,
    )
    assert.deepEqual(withThem, { ok: true })
  })
  test('no users behind a trusted proxy on loopback: the forwarded client must be loopback too', () => {
    const d = gateDecision(request({ forwardedFor: '203.0.113.9' }), { ...noUsers, trustedProxies: 1 })
    assert.equal(d.ok, false)
  })
  test('a rebound Host is refused with 421, on the real port', () => {
    const d = gateDecision(request({ host: 'rebind.example:3000' }), noUsers)
    assert.equal(!d.ok && d.status, 421)
    const wrongPort = gateDecision(request({ localPort: 4100 }), noUsers)
    assert.equal(wrongPort.ok, false)
  })
  test('with users: other clients pass on an allowed host', () => {
    const other = { remoteAddress: '10.1.2.3' }
    assert.deepEqual(gateDecision(request({ ...other, host: 'loom.example.com' }), withUsers), { ok: true })
    assert.equal(gateDecision(request({ ...other, host: 'other.example.com' }), withUsers).ok, false)
  })
})

describe("a write's Origin is the console's own", () => {
  test('same scheme, host and port as the request', () => {
    assert.equal(net.isOwnOrigin('http://127.0.0.1:3000', '127.0.0.1:3000', false), true)
    assert.equal(net.isOwnOrigin('https://loom.example.com', 'loom.example.com:443', true), true)
    assert.equal(net.isOwnOrigin('https://loom.example.com:443', 'loom.example.com', true), true)
  })
  test('another scheme, host or port is another origin', () => {
    assert.equal(net.isOwnOrigin('https://127.0.0.1:3000', '127.0.0.1:3000', false), false, 'https on an http server')
    assert.equal(net.isOwnOrigin('http://loom.example.com', 'loom.example.com', true), false, 'http behind TLS')
    assert.equal(net.isOwnOrigin('http://localhost:3000', '127.0.0.1:3000', false), false)
    assert.equal(net.isOwnOrigin('http://127.0.0.1:3001', '127.0.0.1:3000', false), false)
    assert.equal(net.isOwnOrigin('null', '127.0.0.1:3000', false), false)
    assert.equal(net.isOwnOrigin('http://127.0.0.1:3000', null, false), false)
  })
})

describe('where to go after login', () => {
  const origin = 'http://127.0.0.1:3000'
  test('same-origin paths are kept with query and hash', () => {
    assert.equal(safeNextPath('/runs/a/b/c/d?tab=blocks#x', origin), '/runs/a/b/c/d?tab=blocks#x')
    assert.equal(safeNextPath(null, origin), '/')
    assert.equal(
      safeNextPath('/runs/acme/a%2Fb/agent/r1?tab=timeline', origin),
      '/runs/acme/a%2Fb/agent/r1?tab=timeline',
      'an encoded slash inside a path is kept',
    )
  })
  test('anything that leaves the origin goes home instead', () => {
    for (const next of [
      '/\\evil.example',
      '/\t/evil.example',
      '//evil.example',
      'https://evil.example/',
      'http://127.0.0.1:3001/',
      'javascript:alert(1)',
      '\\\\evil.example',
      '/.//evil.example',
      '/./\\evil.example',
      '/%2F%2Fevil.example',
      '/%5Cevil.example',
      '/%5C%5Cevil.example',
      '/runs\n',
      '/\r//evil.example',
      '/x/..//evil.example',
    ]) {
      assert.equal(safeNextPath(next, origin), '/', JSON.stringify(next))
    }
  })
})
