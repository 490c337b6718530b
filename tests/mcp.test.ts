/**
 * The MCP server through the official SDK's client, over both transports: Streamable HTTP (the
 * real route handler behind a real HTTP server on loopback) and stdio (`npm run mcp`'s script as
 * a child process on a data directory of its own).
 */
import assert from 'node:assert/strict'
import fs from 'node:fs'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { after, before, describe, test } from 'node:test'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { NextRequest } from 'next/server'
import { useFreshEngine } from './helpers/engine'
import { hashPassword } from '../lib/auth/passwords'
import { resetConfig } from '../lib/config'
import { runBegin, runComplete } from '../lib/loom/runs'
import * as wm from '../lib/loom/working-memory'
import { deriveNow } from '../lib/derived/derive'
import { loopbackRequestHeaders } from '../lib/net/peer'
import { ensureReady } from '../lib/server/ready'
import { POST } from '../app/api/mcp/route'

useFreshEngine('mcp')

const ident = { org: 'mcp', namespace: 'ns', agent: 'indexer', userId: '', sessionId: '' }
const ref = { ...ident, runId: 'r1', blockKey: 'checkpoint' }
const hoursAgo = (h: number) => new Date(Date.now() - h * 3_600_000)

/** The route handler behind a real HTTP server, as Next runs it (the request gate's loopback headers added). */
const server = http.createServer((req, res) => {
  const chunks: Buffer[] = []
  req.on('data', (c: Buffer) => chunks.push(c))
  req.on('end', async () => {
    const headers = new Headers()
    for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string') headers.set(k, v)
    for (const [k, v] of Object.entries(loopbackRequestHeaders())) headers.set(k, v)
    headers.set('host', '127.0.0.1:3000')
    const body = chunks.length ? Buffer.concat(chunks) : undefined
    const out = await POST(new NextRequest(`http://127.0.0.1:3000${req.url}`, { method: req.method, headers, body }), {
      params: Promise.resolve({}),
    })
    res.statusCode = out.status
    out.headers.forEach((v, k) => res.setHeader(k, v))
    res.end(Buffer.from(await out.arrayBuffer()))
  })
})
let url: URL

async function httpClient(headers: Record<string, string> = {}) {
  const client = new Client({ name: 'test', version: '1.0.0' })
  await client.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers } }))
  return client
}

const textOf = (r: unknown) => (r as { content: { text: string }[] }).content[0]?.text ?? ''
const jsonOf = (r: unknown) => JSON.parse(textOf(r))

before(async () => {
  await ensureReady()
  await runBegin({ ...ident, runId: 'r1', goal: 'Index the docs' }, () => hoursAgo(3))
  await wm.wmSet(ref, 'doc-1', { actor: 'indexer', sourceTrace: 'h/p1', now: () => hoursAgo(2.9) })
  await wm.wmSet(ref, 'doc-1 doc-2', { actor: 'indexer', sourceTrace: 'h/p1', now: () => hoursAgo(2.8) })
  await runBegin({ ...ident, runId: 'r1', goal: 'Index the docs' }, () => hoursAgo(2))
  await wm.wmSet(ref, 'doc-1 doc-2 doc-3', { actor: 'indexer', sourceTrace: 'h/p2', now: () => hoursAgo(1.9) })
  await runComplete({ org: 'mcp', namespace: 'ns', agent: 'indexer', runId: 'r1', status: 'failed' }, () =>
    hoursAgo(1.8),
  )
  await deriveNow()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  url = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/api/mcp`)
})

after(() => server.close())

describe('Streamable HTTP (POST /api/mcp)', () => {
  test('lists the read-only tools', async () => {
    const client = await httpClient()
    const { tools } = await client.listTools()
    assert.deepEqual(tools.map((t) => t.name).sort(), [
      'diff_versions',
      'explain_resume',
      'get_run',
      'get_timeline',
      'list_checkpoint_versions',
      'list_runs',
    ])
    assert.ok(tools.every((t) => t.annotations?.readOnlyHint === true))
    const listRuns = tools.find((t) => t.name === 'list_runs')!
    assert.deepEqual(Object.keys((listRuns.inputSchema as { properties: object }).properties).sort(), [
      'agent',
      'cursor',
      'flag',
      'from',
      'limit',
      'namespace',
      'org',
      'q',
      'status',
      'to',
    ])
    await client.close()
  })

  test('list_runs, get_run, explain_resume, list_checkpoint_versions, diff_versions and get_timeline answer from the data', async () => {
    const client = await httpClient()
    const call = (name: string, args: Record<string, unknown>) => client.callTool({ name, arguments: args })
    const runs = jsonOf(await call('list_runs', { org: 'mcp', flag: ['resumed'] }))
    assert.deepEqual(
      runs.runs.map((r: { runId: string; attempt: number }) => [r.runId, r.attempt]),
      [['r1', 2]],
    )
    const run = jsonOf(await call('get_run', { org: 'mcp', namespace: 'ns', agent: 'indexer', runId: 'r1' }))
    assert.equal(run.run.status, 'failed')
    assert.equal(run.run.checkpoint.version, '3')
    const why = jsonOf(await call('explain_resume', { org: 'mcp', namespace: 'ns', agent: 'indexer', runId: 'r1' }))
    assert.equal(why.value, 'doc-1 doc-2 doc-3')
    assert.ok(
      why.explanation.some((l: string) => /resumed .* from v2/.test(l)),
      why.explanation.join('\n'),
    )
    const versions = jsonOf(
      await call('list_checkpoint_versions', { org: 'mcp', namespace: 'ns', agent: 'indexer', runId: 'r1' }),
    )
    assert.deepEqual(versions.versions.map((v: { version: string }) => v.version).sort(), ['1', '2', '3'])
    const diff = jsonOf(
      await call('diff_versions', { org: 'mcp', namespace: 'ns', agent: 'indexer', runId: 'r1', a: '2', b: '3' }),
    )
    assert.equal(diff.summary, 'added doc-3')
    const timeline = jsonOf(
      await call('get_timeline', { org: 'mcp', namespace: 'ns', agent: 'indexer', runId: 'r1', limit: 100 }),
    )
    assert.ok(timeline.events.length >= 5)
    assert.equal(timeline.resumes.length, 1)
    await client.close()
  })

  test('bad arguments are errors naming the field; an unknown run is not found', async () => {
    const client = await httpClient()
    const bad = await client.callTool({ name: 'list_runs', arguments: { limit: 500 } })
    assert.equal(bad.isError, true)
    assert.match(textOf(bad), /^invalid: limit must be at most 200 \(field: limit\)$/)
    const missing = await client.callTool({
      name: 'get_run',
      arguments: { org: 'mcp', namespace: 'ns', agent: 'indexer', runId: 'nope' },
    })
    assert.equal(missing.isError, true)
    assert.match(textOf(missing), /^not_found: /)
    const noVersion = await client.callTool({
      name: 'diff_versions',
      arguments: { org: 'mcp', namespace: 'ns', agent: 'indexer', runId: 'r1', a: '1', b: '9' },
    })
    assert.match(textOf(noVersion), /b: version 9 is not a captured version of checkpoint \(field: b\)/)
    await client.close()
  })

  test('the same sign-in as the API: with users configured, no credentials is a 401 and a viewer may read', async () => {
    try {
      process.env.LOOM_RUNS_USERS = `vic:viewer:${await hashPassword('viewer pass')}`
      resetConfig()
      await assert.rejects(httpClient(), /401|Log in first/)
      const client = await httpClient({ authorization: `Basic ${Buffer.from('vic:viewer pass').toString('base64')}` })
      const runs = jsonOf(await client.callTool({ name: 'list_runs', arguments: { org: 'mcp' } }))
      assert.equal(runs.runs.length, 1)
      await client.close()
    } finally {
      delete process.env.LOOM_RUNS_USERS
      resetConfig()
    }
    // A page of another site may not drive it.
    await assert.rejects(httpClient({ origin: 'https://evil.example' }), /403|Cross-site|origin/i)
  })
})

describe('stdio (npm run mcp)', () => {
  test('the same tools over stdio, on the database the environment names', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'loom-runs-mcp-stdio-'))
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: ['--conditions=react-server', '--import', 'tsx', 'scripts/mcp.ts'],
      env: { ...(process.env as Record<string, string>), LOOM_RUNS_DATA_DIR: dir, LOOM_RUNS_DEMO: '0' },
      stderr: 'pipe',
    })
    const client = new Client({ name: 'test', version: '1.0.0' })
    await client.connect(transport)
    const { tools } = await client.listTools()
    assert.equal(tools.length, 6)
    const runs = jsonOf(await client.callTool({ name: 'list_runs', arguments: {} }))
    assert.deepEqual(runs.runs, [])
    const missing = await client.callTool({
      name: 'get_run',
      arguments: { org: 'a', namespace: 'b', agent: 'c', runId: 'd' },
    })
    assert.equal(missing.isError, true)
    await client.close()
  })
})
