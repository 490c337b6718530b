/**
 * One definition per endpoint: every handler in app/api serves the definition of its own method and
 * path, every definition is served by exactly one handler, and the browser's URLs and keys made
 * from the definitions are the ones the rest of the client (links, invalidation by prefix) expects.
 */
import assert from 'node:assert/strict'
import { readdirSync, readFileSync, statSync } from 'node:fs'
import path from 'node:path'
import { test } from 'node:test'
import { endpoints } from '../lib/endpoints/api'
import { runKeys } from '../lib/endpoints/keys'
import { endpointKey, endpointUrl } from '../lib/endpoints/url'
import { links } from '../lib/links'

const root = path.join(import.meta.dirname, '..')
const apiDir = path.join(root, 'app', 'api')

function routeFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = path.join(dir, name)
    if (statSync(p).isDirectory()) return routeFiles(p)
    return name === 'route.ts' ? [p] : []
  })
}

/** The OpenAPI path of a route file: `[org]` folders become `{org}`. */
function pathOf(file: string): string {
  const dir = path.relative(path.join(root, 'app'), path.dirname(file)).split(path.sep)
  return '/' + dir.map((s) => s.replace(/^\[(\w+)\]$/, '{$1}')).join('/')
}

test('every route handler serves the definition of its own method and path, and every definition is served once', () => {
  const served = new Map<string, string>()
  for (const file of routeFiles(apiDir)) {
    const text = readFileSync(file, 'utf8')
    const exported = [
      ...text.matchAll(/^export const (GET|POST|PUT|DELETE|PATCH|HEAD) = ([^]*?)(?=^export |(?![^]))/gm),
    ]
    assert.ok(exported.length > 0, `${file} exports no handler`)
    for (const [, method, rhs] of exported) {
      const name = /^(?:serve|runScopedGet)\(\s*endpoints\.(\w+)\b/.exec(rhs)?.[1]
      assert.ok(name, `${path.relative(root, file)}: ${method} is not served from an endpoint definition`)
      const ep = endpoints[name as keyof typeof endpoints]
      assert.ok(ep, `${path.relative(root, file)}: no endpoint named ${name}`)
      assert.equal(ep.method, method, `${name}: the handler is ${method}, the definition ${ep.method}`)
      assert.equal(ep.path, pathOf(file), `${name}: served at ${pathOf(file)}, defined at ${ep.path}`)
      assert.ok(!served.has(name), `${name} is served twice (${served.get(name)} and ${file})`)
      served.set(name, file)
    }
  }
  assert.deepEqual(
    Object.keys(endpoints).filter((n) => !served.has(n)),
    [],
    'definitions no route serves',
  )
})

test('no two definitions share a method and path', () => {
  const seen = Object.values(endpoints).map((e) => `${e.method} ${e.path}`)
  assert.deepEqual(
    seen.filter((s, i) => seen.indexOf(s) !== i),
    [],
  )
})

const run = { org: 'acme', namespace: 'prod/eu', agent: 'a.b', runId: 'r 1' }

test("the client's URLs are the links' URLs", () => {
  assert.equal(endpointUrl(endpoints.run, { params: run }), links.api.run(run))
  assert.equal(
    endpointUrl(endpoints.restoreBlock, {
      params: { ...run, blockKey: 'checkpoint' },
      query: { userId: 'u', sessionId: 's' },
    }),
    links.api.restore(run, 'checkpoint', 'u', 's'),
  )
  assert.equal(
    endpointUrl(endpoints.block, { params: { ...run, blockKey: 'checkpoint' }, query: { userId: '', sessionId: '' } }),
    links.api.block(run, 'checkpoint'),
  )
  const filters = { org: 'acme', flag: ['resumed' as const, 'near_limit' as const] }
  assert.equal(endpointUrl(endpoints.analytics, { query: filters }), links.api.runsAnalytics(filters))
  assert.equal(
    endpointUrl(endpoints.changes, { query: { ...filters, since: '2026-01-01T00:00:00.000Z' } }),
    links.api.runChanges(filters, '2026-01-01T00:00:00.000Z'),
  )
  assert.equal(endpointUrl(endpoints.timeline, { params: run, query: { limit: '300' } }), links.api.timeline(run, 300))
  assert.equal(endpointUrl(endpoints.compare, { query: { a: 'x/y/z/1' } }), links.api.compare('x/y/z/1'))
})

test("the client's keys are the keys invalidation goes by", () => {
  const filters = { org: 'acme', flag: ['resumed' as const] }
  assert.deepEqual(endpointKey(endpoints.runs, { query: filters }), runKeys.list(filters))
  assert.deepEqual(endpointKey(endpoints.changes, { query: { ...filters, since: 'x' } }), runKeys.changes(filters))
  assert.deepEqual(
    endpointKey(endpoints.blocks, { params: run, query: { content: 'none' } }),
    runKeys.blockSummaries(run),
  )
  assert.deepEqual(endpointKey(endpoints.blocks, { params: run }), runKeys.blocks(run))
  assert.deepEqual(
    endpointKey(endpoints.timeline, { params: run, query: { limit: '300' } }),
    runKeys.timeline(run, 300),
  )
  assert.deepEqual(endpointKey(endpoints.timeline, { params: run }), runKeys.timeline(run))
  assert.deepEqual(
    endpointKey(endpoints.replay, {
      params: { ...run, blockKey: 'checkpoint' },
      query: { userId: 'u', sessionId: 's', toVersion: '3' },
    }),
    runKeys.replay(run, 'checkpoint', 'u', 's', '3'),
  )
  assert.deepEqual(endpointKey(endpoints.batches, { query: { limit: '5' } }), [...runKeys.batches(), 5])
  assert.deepEqual(endpointKey(endpoints.compare, { query: { a: 'x' } }), runKeys.compare('x', null))
  assert.deepEqual(
    endpointKey(endpoints.facets, { query: { field: 'agent', prefix: 'pl', limit: '8' } }),
    runKeys.facets({ field: 'agent', prefix: 'pl' }),
  )
})
