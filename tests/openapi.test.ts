import assert from 'node:assert/strict'
import fs from 'node:fs'
import path from 'node:path'
import { before, describe, test } from 'node:test'
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020'
import { getConfig } from '../lib/config'
import type { DemoRun } from '../lib/demo/scenarios'
import { seedDemo } from '../lib/demo/seed'
import { closedResponseSchemas } from '../lib/openapi/document'
import { createMissingSchema } from '../lib/setup/init'
import { useFreshEngine } from './helpers/engine'
import { call } from './helpers/routes'

useFreshEngine('openapi')

const NOW = new Date('2026-11-25T12:00:00.000Z')
const API_DIR = path.join(__dirname, '..', 'app', 'api')
const METHODS = ['GET', 'PUT', 'POST', 'DELETE', 'PATCH'] as const
const DOC_ID = 'https://loom-runs.invalid/openapi.json'
const CLOSED_ID = 'https://loom-runs.invalid/closed.json'

type Doc = {
  openapi: string
  paths: Record<
    string,
    Record<
      string,
      {
        responses: Record<string, { content: Record<string, { schema: { $ref?: string }; example?: unknown }> }>
        requestBody?: { content: Record<string, { schema: object; example?: unknown }> }
      }
    >
  >
  components: { schemas: Record<string, object> }
}
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Untyped = any

/** Every route file under app/api as [OpenAPI path, methods it exports]. */
function routeFiles(): { path: string; methods: string[] }[] {
  const out: { path: string; methods: string[] }[] = []
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name)
      if (entry.isDirectory()) walk(full)
      else if (entry.name === 'route.ts') {
        const text = fs.readFileSync(full, 'utf8')
        const methods = METHODS.filter((m) =>
          new RegExp(`export\\s+(const|async function|function)\\s+${m}\\b`).test(text),
        )
        const rel = path.relative(path.join(API_DIR, '..'), dir).split(path.sep).join('/')
        out.push({ path: `/${rel.replace(/\[(\w+)\]/g, '{$1}')}`, methods })
      }
    }
  }
  walk(API_DIR)
  return out
}

let doc: Doc
let ajv: Ajv2020
/** The same response schemas with every object closed: a field the server sends that its shape does not declare fails. */
let closedAjv: Ajv2020
let routes: Record<string, Record<string, Untyped>>

/** The document's schema for one answer of one operation, compiled. */
function validatorFor(p: string, method: string, status: number): ValidateFunction {
  const op = doc.paths[p]?.[method.toLowerCase()]
  assert.ok(op, `${method} ${p} is in the document`)
  const content = op.responses[String(status)]?.content
  const media = content?.['application/json'] ?? content?.['text/csv'] ?? content?.['text/markdown']
  assert.ok(media, `${method} ${p} documents status ${status}`)
  const ref = media.schema.$ref
  const v = ref ? ajv.getSchema(`${DOC_ID}${ref}`) : ajv.compile(media.schema)
  assert.ok(v, `${ref} resolves`)
  return v
}

const checked = new Map<string, number>()

/** Calls the real handler and checks the status and the body against the document. */
async function check(
  p: string,
  method: string,
  url: string,
  params: Record<string, string>,
  init: { body?: unknown; headers?: Record<string, string> } = {},
  /** `any`: 200 or 404 (a run's empty list is a 404 for some routes). */
  expectStatus: number | 'any' = 200,
) {
  const handler = routes[p]?.[method]
  assert.ok(handler, `route ${method} ${p} loaded`)
  const res = await call(handler, url, params, { method, ...init })
  if (expectStatus === 'any')
    assert.ok(
      [200, 404].includes(res.status),
      `${method} ${url}: ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`,
    )
  else assert.equal(res.status, expectStatus, `${method} ${url}: ${JSON.stringify(res.body).slice(0, 300)}`)
  const validate = validatorFor(p, method, res.status)
  assert.ok(
    validate(res.body),
    `${method} ${url} (${res.status}) matches the document: ${ajv.errorsText(validate.errors)} in ${JSON.stringify(res.body).slice(0, 300)}`,
  )
  const ref = doc.paths[p][method.toLowerCase()].responses[String(res.status)].content['application/json']?.schema.$ref
  if (ref) {
    const exact = closedAjv.getSchema(`${CLOSED_ID}${ref}`)
    assert.ok(exact, `${ref} resolves among the closed schemas`)
    assert.ok(
      exact(res.body),
      `${method} ${url} (${res.status}) declares every field it sends: ${closedAjv.errorsText(exact.errors)} in ${JSON.stringify(res.body).slice(0, 300)}`,
    )
  }
  const key = `${method} ${p} ${res.status}`
  checked.set(key, (checked.get(key) ?? 0) + 1)
  return res.body as Untyped
}

before(async () => {
  await createMissingSchema({ history: true, runIndex: true })
  await seedDemo({ seed: 42, now: NOW })
  routes = {}
  for (const r of routeFiles()) {
    const mod = await import(path.join(API_DIR, '..', r.path.replace(/\{(\w+)\}/g, '[$1]'), 'route.ts'))
    routes[r.path] = mod
  }
  const res = await call(routes['/api/openapi.json'].GET, '/api/openapi.json')
  assert.equal(res.status, 200)
  doc = res.body as Doc
  ajv = new Ajv2020({ strict: false, allErrors: true })
  ajv.addSchema({ $id: DOC_ID, components: doc.components })
  closedAjv = new Ajv2020({ strict: false, allErrors: true })
  closedAjv.addSchema({ $id: CLOSED_ID, components: { schemas: closedResponseSchemas() } })
})

describe('GET /api/openapi.json', () => {
  test('is an OpenAPI 3.1 document whose every schema compiles as JSON Schema 2020-12', () => {
    assert.match(doc.openapi, /^3\.1\./)
    const strict = new Ajv2020({ strict: true, strictTypes: false, allowUnionTypes: true })
    strict.addKeyword('example')
    for (const [name, schema] of Object.entries(doc.components.schemas))
      assert.doesNotThrow(() => strict.compile(schema), name)
  })

  test('lists every route under app/api with every method it exports, and nothing else', () => {
    const files = routeFiles()
    assert.ok(files.length >= 20, `found ${files.length} route files`)
    const documented = new Set(
      Object.entries(doc.paths).flatMap(([p, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${p}`)),
    )
    const exported = new Set(files.flatMap((f) => f.methods.map((m) => `${m} ${f.path}`)))
    for (const e of exported) assert.ok(documented.has(e), `${e} is documented`)
    for (const d of documented) assert.ok(exported.has(d), `${d} is a real route`)
  })

  test("is public but answers only to the console's own host names", async () => {
    const res = await call(
      routes['/api/openapi.json'].GET,
      '/api/openapi.json',
      {},
      { headers: { host: 'rebound.example:3000' } },
    )
    assert.equal(res.status, 421)
    assert.ok(validatorFor('/api/openapi.json', 'GET', 421)(res.body))
    const text = JSON.stringify(doc)
    assert.ok(!text.includes(getConfig().dataDir), 'no data directory in the document')
  })

  test('its examples match their own schemas', () => {
    let n = 0
    for (const [p, ops] of Object.entries(doc.paths)) {
      for (const [m, op] of Object.entries(ops)) {
        for (const [status, r] of Object.entries(op.responses)) {
          const media = r.content['application/json']
          if (media?.example === undefined) continue
          const v = validatorFor(p, m, Number(status))
          assert.ok(v(media.example), `${m} ${p} ${status} example: ${ajv.errorsText(v.errors)}`)
          const exact = media.schema.$ref ? closedAjv.getSchema(`${CLOSED_ID}${media.schema.$ref}`) : undefined
          if (exact)
            assert.ok(
              exact(media.example),
              `${m} ${p} ${status} example declares every field: ${closedAjv.errorsText(exact.errors)}`,
            )
          n++
        }
        const body = op.requestBody?.content['application/json']
        if (body?.example !== undefined) {
          const v = ajv.compile(body.schema)
          assert.ok(v(body.example), `${m} ${p} request example: ${ajv.errorsText(v.errors)}`)
          n++
        }
      }
    }
    assert.ok(n >= 10, `${n} examples checked`)
  })
})

describe('real answers from the demo data match the document', () => {
  test('console, auth and list routes', async () => {
    await check('/api/health', 'GET', '/api/health', {})
    await check('/api/schema', 'GET', '/api/schema', {})
    await check('/api/auth/me', 'GET', '/api/auth/me', {})
    await check('/api/auth/logout', 'POST', '/api/auth/logout', {}, { headers: { origin: 'http://127.0.0.1:3000' } })
    // No users configured: a login is refused as invalid input.
    await check(
      '/api/auth/login',
      'POST',
      '/api/auth/login',
      {},
      { body: { name: 'a', password: 'b' }, headers: { origin: 'http://127.0.0.1:3000' } },
      400,
    )
    const page = await check('/api/runs', 'GET', '/api/runs?limit=5', {})
    assert.ok(page.nextCursor, 'the demo has more than one page')
    await check('/api/runs', 'GET', `/api/runs?limit=200&cursor=${encodeURIComponent(page.nextCursor)}`, {})
    await check('/api/runs', 'GET', '/api/runs?limit=500', {}, {}, 400)
    await check('/api/runs/analytics', 'GET', '/api/runs/analytics', {})
    await check('/api/runs/facets', 'GET', '/api/runs/facets?field=org&prefix=ac', {})
    await check('/api/runs/csv', 'GET', '/api/runs/csv?status=failed&limit=3', {})
    await check('/api/runs/csv', 'GET', '/api/runs/csv?limit=0', {}, {}, 400)
    await check('/api/runs/facets', 'GET', '/api/runs/facets?field=title', {}, {}, 400)
    await check('/api/runs/changes', 'GET', '/api/runs/changes?since=2026-01-01', {})
    const cohorts = await check('/api/runs/cohorts', 'GET', '/api/runs/cohorts', {})
    assert.ok(cohorts.cohorts.length > 0, 'the demo has troubled runs')
    await check('/api/runs/cohorts', 'GET', '/api/runs/cohorts?flag=bogus', {}, {}, 400)
    await check('/api/events', 'GET', '/api/events?limit=20', {})
    await check('/api/events', 'GET', '/api/events?to=nope', {}, {}, 400)
    await check('/api/batches', 'GET', '/api/batches', {})
    // Compare: a failed demo run against its agent's last success before it (or none, with why), two named runs, an unknown run.
    const failed = (await check('/api/runs', 'GET', '/api/runs?status=failed&limit=3', {})).runs as {
      org: string
      namespace: string
      agent: string
      runId: string
    }[]
    const key = (r: { org: string; namespace: string; agent: string; runId: string }) =>
      encodeURIComponent([r.org, r.namespace, r.agent, r.runId].map(encodeURIComponent).join('/'))
    for (const r of failed) await check('/api/compare', 'GET', `/api/compare?a=${key(r)}`, {})
    await check('/api/compare', 'GET', `/api/compare?a=${key(failed[0])}&b=${key(failed[1])}`, {})
    await check(
      '/api/compare',
      'GET',
      `/api/compare?a=${key({ org: 'no', namespace: 'such', agent: 'run', runId: 'here' })}`,
      {},
      {},
      404,
    )
    await check('/api/compare', 'GET', '/api/compare?a=just-one-segment', {}, {}, 400)
  })

  test("every demo run's routes, its checkpoint, and the error answers", async () => {
    const R = '/api/runs/{org}/{namespace}/{agent}/{runId}'
    const list = (await call(routes['/api/runs'].GET, '/api/runs?limit=200')).body.runs as (DemoRun & {
      checkpoint: unknown
    })[]
    assert.ok(list.length >= 10, `${list.length} demo runs`)
    for (const run of list) {
      const params = { org: run.org, namespace: run.namespace, agent: run.agent, runId: run.runId }
      const base = `/api/runs/${[run.org, run.namespace, run.agent, run.runId].map(encodeURIComponent).join('/')}`
      await check(R, 'GET', base, params)
      for (const sub of [
        '/blocks',
        '/timeline',
        '/conversations',
        '/memories',
        '/searches',
        '/blobs',
        '/audit',
        '/export',
        '/incident.md',
      ]) {
        // An empty list of a run is a 404 for some routes: either answer must match the document.
        await check(`${R}${sub}`, 'GET', `${base}${sub}`, params, {}, 'any')
      }
      if (run.checkpoint) {
        const q = `?userId=${encodeURIComponent(run.userId)}&sessionId=${encodeURIComponent(run.sessionId)}`
        await check(`${R}/blocks/{blockKey}`, 'GET', `${base}/blocks/checkpoint${q}`, {
          ...params,
          blockKey: 'checkpoint',
        })
        // A clear's replay preview, and going back to v1 (a 404 where v1 is gone: either answer must match).
        await check(`${R}/blocks/{blockKey}/replay`, 'GET', `${base}/blocks/checkpoint/replay${q}`, {
          ...params,
          blockKey: 'checkpoint',
        })
        await check(
          `${R}/blocks/{blockKey}/replay`,
          'GET',
          `${base}/blocks/checkpoint/replay${q}&toVersion=1`,
          { ...params, blockKey: 'checkpoint' },
          {},
          'any',
        )
      }
    }
    const missing = { org: 'no', namespace: 'such', agent: 'run', runId: 'here' }
    await check(R, 'GET', '/api/runs/no/such/run/here', missing, {}, 404)
  })

  test('writes: edit, restore, clear, a conflict and bad bodies', async () => {
    const B = '/api/runs/{org}/{namespace}/{agent}/{runId}/blocks/{blockKey}'
    const list = (await call(routes['/api/runs'].GET, '/api/runs?limit=200&status=succeeded')).body.runs as (DemoRun & {
      checkpoint: { version: string; isDeleted: boolean } | null
    })[]
    const run = list.find((r) => r.checkpoint && !r.checkpoint.isDeleted)
    assert.ok(run, 'a finished run with a live checkpoint')
    const params = {
      org: run.org,
      namespace: run.namespace,
      agent: run.agent,
      runId: run.runId,
      blockKey: 'checkpoint',
    }
    const url = `/api/runs/${[run.org, run.namespace, run.agent, run.runId].map(encodeURIComponent).join('/')}/blocks/checkpoint?userId=${encodeURIComponent(run.userId)}&sessionId=${encodeURIComponent(run.sessionId)}`
    const headers = { origin: 'http://127.0.0.1:3000' }
    const from = run.checkpoint!.version
    const edited = await check(B, 'PUT', url, params, {
      headers,
      body: { content: 'edited for the contract test', expectedVersion: from, reason: 'openapi test' },
    })
    await check(
      B,
      'PUT',
      url,
      params,
      { headers, body: { content: 'stale', expectedVersion: from, reason: 'openapi test' } },
      409,
    )
    await check(
      B,
      'PUT',
      url,
      params,
      { headers, body: { content: 'x', expectedVersion: 'not a version', reason: 'r' } },
      400,
    )
    const restored = await check(`${B}/restore`, 'POST', url.replace('/checkpoint?', '/checkpoint/restore?'), params, {
      headers,
      body: { version: from, expectedVersion: edited.block.version, reason: 'openapi test' },
    })
    await check(B, 'DELETE', url, params, {
      headers,
      body: { expectedVersion: restored.block.version, reason: 'openapi test' },
    })
  })

  test('batches: a dry run, its real run, a stale token and a bad body', async () => {
    const headers = { origin: 'http://127.0.0.1:3000' }
    const body = { filter: { status: 'failed' }, action: 'clear', reason: 'openapi test' }
    const preview = await check(
      '/api/batches',
      'POST',
      '/api/batches',
      {},
      { headers, body: { ...body, dryRun: true } },
    )
    assert.ok(preview.items.length > 0, 'the demo has failed runs')
    const ran = await check(
      '/api/batches',
      'POST',
      '/api/batches',
      {},
      { headers, body: { ...body, dryRun: false, token: preview.token } },
    )
    await check(
      '/api/batches',
      'POST',
      '/api/batches',
      {},
      { headers, body: { ...body, filter: {}, dryRun: false, token: preview.token } },
      409,
    )
    await check(
      '/api/batches',
      'POST',
      '/api/batches',
      {},
      { headers, body: { ...body, action: 'erase', dryRun: true } },
      400,
    )
    // The console-wide audit: the batch just run, and a page of everything.
    const batchAudit = await check(
      '/api/audit',
      'GET',
      `/api/audit?batchId=${encodeURIComponent(ran.batchId)}&limit=200`,
      {},
    )
    const written = ran.items.filter((i: { outcome?: string }) => i.outcome === 'done').length
    assert.ok(written > 0)
    assert.equal(batchAudit.entries.length, written)
    assert.ok(batchAudit.entries.every((e: { batchId: string }) => e.batchId === ran.batchId))
    await check('/api/audit', 'GET', '/api/audit?limit=2', {})
    await check('/api/audit', 'GET', '/api/audit?cursor=not-ours', {}, {}, 400)
    // The kept batch, its undo (a dry run, then the real one) and an unknown id.
    const id = { batchId: ran.batchId }
    const kept = await check('/api/batches/{batchId}', 'GET', `/api/batches/${ran.batchId}`, id)
    assert.equal(kept.items.filter((i: { outcome: string }) => i.outcome === 'done').length, written)
    await check(
      '/api/batches/{batchId}',
      'GET',
      '/api/batches/00000000-0000-4000-8000-000000000000',
      { batchId: '00000000-0000-4000-8000-000000000000' },
      {},
      404,
    )
    const undo = '/api/batches/{batchId}/undo'
    const undoPreview = await check(undo, 'POST', `/api/batches/${ran.batchId}/undo`, id, {
      headers,
      body: { dryRun: true },
    })
    await check(undo, 'POST', `/api/batches/${ran.batchId}/undo`, id, {
      headers,
      body: { dryRun: false, token: undoPreview.token, reason: 'openapi test' },
    })
    await check(undo, 'POST', `/api/batches/${ran.batchId}/undo`, id, { headers, body: { dryRun: false } }, 400)
    await check('/api/events', 'GET', '/api/events', {})
  })

  test('saved views: create, list, read, change, deliveries, a test without an alert, delete, bad input', async () => {
    const headers = { origin: 'http://127.0.0.1:3000' }
    const created = await check(
      '/api/views',
      'POST',
      '/api/views',
      {},
      { headers, body: { name: 'Failed runs', filter: { status: 'failed' } } },
    )
    const id = { id: created.view.id }
    await check('/api/views', 'POST', '/api/views', {}, { headers, body: { name: 'x'.repeat(81), filter: {} } }, 400)
    await check('/api/views', 'GET', '/api/views', {})
    await check('/api/views/{id}', 'GET', `/api/views/${id.id}`, id)
    await check('/api/views/{id}', 'PUT', `/api/views/${id.id}`, id, { headers, body: { name: 'Failed runs (all)' } })
    await check('/api/views/{id}/deliveries', 'GET', `/api/views/${id.id}/deliveries`, id)
    await check('/api/views/{id}/test', 'POST', `/api/views/${id.id}/test`, id, { headers }, 400)
    await check('/api/views/{id}', 'DELETE', `/api/views/${id.id}`, id, { headers })
    await check('/api/views/{id}', 'GET', `/api/views/${id.id}`, id, {}, 404)
  })

  test('MCP: a JSON-RPC answer to POST, a 405 to GET and DELETE', async () => {
    const headers = { accept: 'application/json, text/event-stream' }
    const init = {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'openapi-test', version: '1' } },
    }
    const answer = await check('/api/mcp', 'POST', '/api/mcp', {}, { headers, body: init })
    assert.equal(answer.result.serverInfo.name, 'loom-runs')
    await check('/api/mcp', 'GET', '/api/mcp', {}, {}, 405)
    await check('/api/mcp', 'DELETE', '/api/mcp', {}, {}, 405)
  })

  test('covered every documented operation with at least one real answer', () => {
    const answered = new Set([...checked.keys()].map((k) => k.split(' ').slice(0, 2).join(' ')))
    for (const [p, ops] of Object.entries(doc.paths)) {
      for (const m of Object.keys(ops)) {
        if (p === '/api/openapi.json') continue
        assert.ok(answered.has(`${m.toUpperCase()} ${p}`), `${m.toUpperCase()} ${p} was checked against a real answer`)
      }
    }
  })
})
