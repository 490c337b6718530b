import 'server-only'
import http from 'node:http'
import https from 'node:https'
import type { Socket } from 'node:net'
import type { TLSSocket } from 'node:tls'
import type { AppConfig } from '../config'
import { allowedHosts, clientAddress, isHostAllowed, isLoopbackAddress } from '../net/network'
import { PEER_HEADER, peerStamp } from '../net/peer'

export type GateInput = {
  /** The socket's remote address. */
  remoteAddress: string | undefined
  /** The port the socket was accepted on (the console's real port, whatever PORT says). */
  localPort: number | undefined
  host: string | undefined
  forwardedFor: string | undefined
  /** The request carries Forwarded, X-Forwarded-For or X-Real-IP (it came through a proxy or tunnel). */
  forwarded?: boolean
}

/** Headers a proxy or tunnel adds: with no users, a request that carries one came from someone else. */
export const FORWARDING_HEADERS = ['forwarded', 'x-forwarded-for', 'x-real-ip'] as const

export type GateDecision = { ok: true } | { ok: false; status: 403 | 421; message: string }

/**
 * Whether a request may reach the app at all. Decided on the socket's facts before any page
 * or route runs: a Host the console does not answer to (DNS rebinding) is refused, and with
 * no users configured so is every client that is not on loopback, however the server was
 * started (`next start` binds all interfaces by default; containers set HOSTNAME=0.0.0.0).
 */
export function gateDecision(
  input: GateInput,
  config: Pick<AppConfig, 'users' | 'allowedHosts' | 'trustedProxies' | 'port'>,
): GateDecision {
  if (config.users.length === 0 && input.forwarded) {
    // A tunnel or proxy on this machine reaches the console from loopback: everyone behind it would be the local operator.
    return {
      ok: false,
      status: 403,
      message:
        'This console has no users configured, and this request came through a proxy or tunnel (it carries a forwarding header). Serving the console through a proxy or tunnel needs users: configure LOOM_RUNS_USERS.',
    }
  }
  if (config.users.length === 0) {
    const client = clientAddress(input.remoteAddress ?? null, input.forwardedFor ?? null, config.trustedProxies)
    if (!isLoopbackAddress(client) || !isLoopbackAddress(input.remoteAddress)) {
      return {
        ok: false,
        status: 403,
        message:
          'This console has no users configured, so it serves loopback clients only. Configure LOOM_RUNS_USERS to let others in.',
      }
    }
  }
  const allowed = allowedHosts(input.localPort || config.port, config.allowedHosts)
  if (!isHostAllowed(input.host, allowed)) {
    return {
      ok: false,
      status: 421,
      message: 'This console does not answer to that host name. Add it to LOOM_RUNS_ALLOWED_HOSTS if it is yours.',
    }
  }
  return { ok: true }
}

function refuse(res: http.ServerResponse, decision: Extract<GateDecision, { ok: false }>) {
  const body = JSON.stringify({
    error: { code: decision.status === 421 ? 'misdirected' : 'forbidden', message: decision.message },
  })
  res.writeHead(decision.status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(body),
    'cache-control': 'no-store',
    connection: 'close',
  })
  res.end(body)
}

/** Answers an upgrade request the console does not serve, and closes its socket. */
function closeUpgrade(socket: Socket, status: 403 | 404 | 421) {
  const reason = { 403: 'Forbidden', 404: 'Not Found', 421: 'Misdirected Request' }[status]
  socket.end(`HTTP/1.1 ${status} ${reason}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`, () => socket.destroy())
}

const g = globalThis as typeof globalThis & { __loomRunsGateInstalled?: boolean }

/**
 * Puts the gate in front of every HTTP server in this process. Next gives pages and route
 * handlers no access to the socket, and the `X-Forwarded-For` it adds keeps whatever the client
 * sent, so the gate sees each request first, refuses what it must, and stamps the socket's
 * facts on the request for the auth layer (see ./peer.ts).
 */
export function installRequestGate(getConfig: () => AppConfig): void {
  if (g.__loomRunsGateInstalled) return
  g.__loomRunsGateInstalled = true
  for (const proto of [http.Server.prototype, https.Server.prototype]) {
    const emit = proto.emit
    proto.emit = function gatedEmit(this: http.Server, event: string | symbol, ...args: unknown[]) {
      if (event === 'request' || event === 'upgrade') {
        const req = args[0] as http.IncomingMessage
        const socket = req.socket as Socket & Partial<TLSSocket>
        delete req.headers[PEER_HEADER]
        const decision = gateDecision(
          {
            remoteAddress: socket.remoteAddress,
            localPort: socket.localPort,
            host: req.headers.host,
            forwardedFor: req.headers['x-forwarded-for'] as string | undefined,
            forwarded: FORWARDING_HEADERS.some((h) => req.headers[h] !== undefined),
          },
          getConfig(),
        )
        if (!decision.ok) {
          if (event === 'request') refuse(args[1] as http.ServerResponse, decision)
          else closeUpgrade(socket, decision.status)
          return true
        }
        // The console serves no WebSocket (only the dev server's hot reload does): answered and closed at once.
        if (event === 'upgrade' && !(process.env.NODE_ENV === 'development' && req.url?.startsWith('/_next/'))) {
          closeUpgrade(socket, 404)
          return true
        }
        req.headers[PEER_HEADER] = peerStamp({
          address: socket.remoteAddress ?? '',
          localPort: socket.localPort ?? 0,
          encrypted: socket.encrypted === true,
        })
      }
      return Reflect.apply(emit, this, [event, ...args]) as boolean
    } as typeof proto.emit
  }
}
