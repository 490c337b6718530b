import assert from 'node:assert/strict'
import { test } from 'node:test'
import { links } from './links'
import type { RunsFilters } from './runs-search'

const run = { org: 'acme', namespace: 'prod/eu', agent: 'a.b', runId: 'r 1' }

test('run routes encode every segment, dots included', () => {
  assert.equal(links.api.run(run), '/api/runs/acme/prod%2Feu/a%2Eb/r%201')
  assert.equal(links.run(run, { tab: 'timeline', block: undefined }), '/runs/acme/prod%2Feu/a%2Eb/r%201?tab=timeline')
  assert.equal(links.run(run), '/runs/acme/prod%2Feu/a%2Eb/r%201')
})

test('a block route carries the writer identity only when it is not the default one', () => {
  assert.equal(links.api.block(run, 'checkpoint'), '/api/runs/acme/prod%2Feu/a%2Eb/r%201/blocks/checkpoint')
  assert.equal(
    links.api.restore(run, 'checkpoint', 'u', 's'),
    '/api/runs/acme/prod%2Feu/a%2Eb/r%201/blocks/checkpoint/restore?userId=u&sessionId=s',
  )
})

test('runs-page routes repeat flags and leave out what is not set', () => {
  const filters: RunsFilters = { org: 'acme', flag: ['resumed', 'near_limit'] }
  assert.equal(links.api.runsAnalytics({}), '/api/runs/analytics')
  assert.equal(links.api.runsAnalytics(filters), '/api/runs/analytics?org=acme&flag=resumed&flag=near_limit')
  assert.equal(links.api.runChanges(filters), '/api/runs/changes?org=acme&flag=resumed&flag=near_limit')
  assert.equal(
    links.api.runChanges({}, '2026-01-01T00:00:00.000Z'),
    '/api/runs/changes?since=2026-01-01T00%3A00%3A00.000Z',
  )
  assert.equal(
    links.api.runFacets({ field: 'agent', prefix: 'pl', org: 'acme' }),
    '/api/runs/facets?field=agent&prefix=pl&org=acme&limit=8',
  )
  assert.equal(links.runsList({}), '/')
})
