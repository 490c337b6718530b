import 'server-only'
import { randomBytes } from 'node:crypto'

/**
 * What the socket said about a request, carried from the request gate (which sees the
 * socket) to the proxy and route handlers (which see only headers). The header is
 * overwritten by the gate on every request and carries a per-process secret, so a client
 * that writes it itself is ignored.
 */
export const PEER_HEADER = 'x-loom-runs-peer'

export type Peer = { address: string; localPort: number; encrypted: boolean }

const g = globalThis as typeof globalThis & { __loomRunsPeerNonce?: string }

function nonce(): string {
  g.__loomRunsPeerNonce ??= randomBytes(18).toString('base64url')
  return g.__loomRunsPeerNonce
}

export function peerStamp(peer: Peer): string {
  return [nonce(), encodeURIComponent(peer.address), String(peer.localPort), peer.encrypted ? '1' : '0'].join('|')
}

/** The socket facts the gate stamped on this request, or null when it did not (then nothing is trusted). */
export function readPeer(headers: { get(name: string): string | null }): Peer | null {
  const value = headers.get(PEER_HEADER)
  if (!value) return null
  const [n, address, port, enc] = value.split('|')
  if (n !== nonce() || !address) return null
  const localPort = Number(port)
  return {
    address: decodeURIComponent(address),
    localPort: Number.isInteger(localPort) ? localPort : 0,
    encrypted: enc === '1',
  }
}

/** Headers of a request from a loopback client that passed the gate, for callers inside this process (tests, the benchmark). */
export function loopbackRequestHeaders(port = 3000): Record<string, string> {
  return {
    host: `127.0.0.1:${port}`,
    [PEER_HEADER]: peerStamp({ address: '127.0.0.1', localPort: port, encrypted: false }),
  }
}
