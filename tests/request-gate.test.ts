/**
 * The request gate on a real HTTP server: upgrade requests the console does not serve are answered
 * and closed at once, and with no users a request that came through a proxy or tunnel is refused.
 */
import assert from 'node:assert/strict'
import http from 'node:http'
import net from 'node:net'
import { after, before, test } from 'node:test'
import { getConfig } from '../lib/config'
import { installRequestGate } from '../lib/server/gate'
import { useFreshEngine } from './helpers/engine'

useFreshEngine('request-gate')

let server: http.Server
let port = 0

before(async () => {
  installRequestGate(getConfig)
  server = http.createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/plain' })
    res.end('served')
  })
  // What a server that took the upgrade would do: keep the socket (the gate must answer before it).
  server.on('upgrade', () => {})
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  port = (server.address() as net.AddressInfo).port
})

after(() => server.close())

/** Sends raw request text; resolves with what came back and whether the server closed the socket within `ms`. */
function raw(text: string, ms = 1500): Promise<{ answer: string; closed: boolean; afterMs: number }> {
  return new Promise((resolve) => {
    const started = Date.now()
    const socket = net.connect(port, '127.0.0.1', () => socket.write(text))
    let answer = ''
    socket.on('data', (d) => (answer += d.toString()))
    const timer = setTimeout(() => {
      socket.destroy()
      resolve({ answer, closed: false, afterMs: Date.now() - started })
    }, ms)
    socket.on('close', () => {
      clearTimeout(timer)
      resolve({ answer, closed: true, afterMs: Date.now() - started })
    })
  })
}

test('an upgrade request is answered and its socket closed at once', async () => {
  const r = await raw(
    `GET /api/anything HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nConnection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n`,
  )
  assert.match(r.answer, /^HTTP\/1\.1 404 /)
  assert.equal(r.closed, true, 'the server closed the socket')
  assert.ok(r.afterMs < 1000, `closed after ${r.afterMs} ms`)
})

test('with no users, a request that carries a forwarding header is refused with a message that says why', async () => {
  for (const header of ['X-Forwarded-For: 127.0.0.1', 'Forwarded: for=203.0.113.7', 'X-Real-IP: 203.0.113.7']) {
    const r = await raw(`GET /api/health HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n${header}\r\nConnection: close\r\n\r\n`)
    assert.match(r.answer, /^HTTP\/1\.1 403 /, header)
    assert.match(r.answer, /proxy or tunnel needs users/, header)
  }
  const plain = await raw(`GET /api/health HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nConnection: close\r\n\r\n`)
  assert.match(plain.answer, /^HTTP\/1\.1 200 /)
  assert.match(plain.answer, /served/)
})
