import assert from 'node:assert/strict'
import { NextRequest } from 'next/server'
import { loopbackRequestHeaders } from '../../lib/net/peer'

type Handler = (req: NextRequest, ctx: { params: Promise<unknown> }) => Promise<Response>

/** Calls a real route handler the way Next does, and returns status and parsed JSON (a CSV or markdown body as text). */
export async function call(
  handler: Handler,
  url: string,
  params: Record<string, string> = {},
  init: { method?: string; body?: unknown; headers?: Record<string, string> } = {},
) {
  const req = new NextRequest(new URL(url, 'http://127.0.0.1:3000'), {
    method: init.method ?? 'GET',
    // As if from a loopback client that passed the request gate; a test may override any header.
    headers: { 'content-type': 'application/json', ...loopbackRequestHeaders(), ...(init.headers ?? {}) },
    body: init.body === undefined ? undefined : typeof init.body === 'string' ? init.body : JSON.stringify(init.body),
  })
  const res = await handler(req, { params: Promise.resolve(params) })
  const text = await res.text()
  const headers = Object.fromEntries(res.headers.entries())
  const json = !/^text\/(csv|markdown)/.test(headers['content-type'] ?? '')
  return {
    status: res.status,
    headers,
    setCookie: res.headers.get('set-cookie'),
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    body: text ? (json ? (JSON.parse(text) as any) : text) : undefined,
  }
}

/** Asserts that a route refused a request (400 unless another status is given) and named the field it refused. */
export function assertRefused(res: Awaited<ReturnType<typeof call>>, field: string, status = 400): void {
  assert.equal(res.status, status, JSON.stringify(res.body))
  assert.equal(res.body.error.field, field)
}

/** The named fields of each row of a response body, as tuples in that order (what a deepEqual of a list compares). */
export function columns(rows: readonly Record<string, unknown>[], ...keys: string[]): unknown[][] {
  return rows.map((row) => keys.map((key) => row[key]))
}
