import assert from 'node:assert/strict'
import { before, describe, test } from 'node:test'
import { command } from '../lib/clickhouse/query'
import { runFacetsNames } from '../lib/derived/names'
import { installRunIndex } from '../lib/setup/init'
import { runBegin } from '../lib/loom/runs'
import { wmSet } from '../lib/loom/working-memory'
import { indexNames, runIndexReady } from '../lib/run-set/run-index'
import { existingTables } from '../lib/clickhouse/schema-presence'
import { ensureReady } from '../lib/server/ready'
import { GET as facets } from '../app/api/runs/facets/route'
import { useFreshEngine } from './helpers/engine'
import { call } from './helpers/routes'

useFreshEngine('api-facets')

const T0 = new Date('2026-11-20T10:00:00.000Z')

before(async () => {
  await ensureReady()
  // acme: 5 runs (prod/invoicer r1, r2 and cp-only; prod/Accountant r3; staging/invoicer r4); ACORN: 2; globex: 1.
  const begin = (org: string, namespace: string, agent: string, runId: string) =>
    runBegin({ org, namespace, agent, userId: '', sessionId: '', runId, goal: `goal of ${runId}` }, () => T0)
  await begin('acme', 'prod', 'invoicer', 'r1')
  await begin('acme', 'prod', 'invoicer', 'r2')
  // A second attempt of r2 is still one run.
  await begin('acme', 'prod', 'invoicer', 'r2')
  await begin('acme', 'prod', 'Accountant', 'r3')
  await begin('acme', 'staging', 'invoicer', 'r4')
  await begin('ACORN', 'prod', 'ranker', 'r5')
  await begin('globex', 'prod', 'invoicer', 'r6')
  const ctx = { actor: 'a', sourceTrace: 'h/1', now: () => new Date('2026-11-21T08:00:00.000Z') }
  // A checkpoint-only run, and a checkpoint of a run that has a run row (not counted twice).
  await wmSet(
    {
      org: 'acme',
      namespace: 'prod',
      agent: 'invoicer',
      userId: 'u',
      sessionId: 's',
      runId: 'cp-only',
      blockKey: 'checkpoint',
    },
    'x',
    ctx,
  )
  await wmSet(
    {
      org: 'acme',
      namespace: 'prod',
      agent: 'invoicer',
      userId: '',
      sessionId: '',
      runId: 'r1',
      blockKey: 'checkpoint',
    },
    'y',
    ctx,
  )
  await wmSet(
    {
      org: 'ACORN',
      namespace: 'prod',
      agent: 'ranker',
      userId: '',
      sessionId: '',
      runId: 'cp-2',
      blockKey: 'checkpoint',
    },
    'z',
    ctx,
  )
})

const get = (qs: string) => call(facets, `/api/runs/facets?${qs}`)

function checks(label: string) {
  describe(`GET /api/runs/facets (${label})`, () => {
    test('org values starting with "ac", case-insensitive, most runs first', async () => {
      const res = await get('field=org&prefix=ac')
      assert.equal(res.status, 200)
      assert.deepEqual(res.body, {
        values: [
          { value: 'acme', runs: 5 },
          { value: 'ACORN', runs: 2 },
        ],
      })
      assert.deepEqual((await get('field=org&prefix=AC')).body, res.body)
    })

    test('no prefix: every value; limit cuts the list', async () => {
      assert.deepEqual(
        (await get('field=org')).body.values.slice(0, 3).map((v: { value: string }) => v.value),
        ['acme', 'ACORN', 'globex'],
      )
      assert.deepEqual((await get('field=org&limit=1')).body, { values: [{ value: 'acme', runs: 5 }] })
    })

    test('namespace and agent suggestions narrow by the other filters', async () => {
      assert.deepEqual((await get('field=namespace&org=acme')).body, {
        values: [
          { value: 'prod', runs: 4 },
          { value: 'staging', runs: 1 },
        ],
      })
      assert.deepEqual((await get('field=agent&org=acme&namespace=prod')).body, {
        values: [
          { value: 'invoicer', runs: 3 },
          { value: 'Accountant', runs: 1 },
        ],
      })
      assert.deepEqual((await get('field=agent&prefix=i')).body, { values: [{ value: 'invoicer', runs: 5 }] })
      // The field's own filter does not narrow its suggestions.
      assert.deepEqual((await get('field=org&org=globex&prefix=g')).body, { values: [{ value: 'globex', runs: 1 }] })
    })

    test('characters with meaning in LIKE patterns are plain text', async () => {
      assert.deepEqual((await get(`field=org&prefix=${encodeURIComponent('%')}`)).body, { values: [] })
      assert.deepEqual((await get(`field=org&prefix=${encodeURIComponent("a'c")}`)).body, { values: [] })
    })
  })
}

describe('GET /api/runs/facets: invalid input is a 400 naming the field', () => {
  for (const [qs, field] of [
    ['', 'field'],
    ['field=goal', 'field'],
    ['field=org&limit=0', 'limit'],
    ['field=org&limit=51', 'limit'],
    ['field=org&limit=ten', 'limit'],
    [`field=org&prefix=${'a'.repeat(257)}`, 'prefix'],
  ] as const) {
    test(`${qs || '(no query)'} → 400 on ${field}`, async () => {
      const res = await get(qs)
      assert.equal(res.status, 400)
      assert.equal(res.body.error.field, field)
      assert.match(res.body.error.message, new RegExp(field))
    })
  }
})

/** Forget the cached list of tables, so the next request sees what a test created or dropped. */
const forgetTables = () => {
  ;(globalThis as { __loomRunsTables?: unknown }).__loomRunsTables = undefined
}

describe('read from the facets table', () => {
  before(async () => {
    await installRunIndex()
    forgetTables()
    assert.ok((await existingTables()).has(runFacetsNames('loom_runs').table))
  })

  test('a run written after the install is counted by the next derivation', async () => {
    await runBegin(
      { org: 'zulu', namespace: 'prod', agent: 'late', userId: '', sessionId: '', runId: 'later', goal: 'g' },
      () => T0,
    )
    assert.deepEqual((await get('field=org&prefix=z')).body, { values: [{ value: 'zulu', runs: 1 }] })
  })

  checks('facets table')
})

describe('read from the run index when the facets table is not installed', () => {
  before(async () => {
    await command(`DROP TABLE IF EXISTS ${runFacetsNames('loom_runs').table}`)
    forgetTables()
    assert.equal(await runIndexReady(), true)
  })
  checks('run index')
})

describe("read from Loom's tables when neither is installed", () => {
  before(async () => {
    await command(`DROP TABLE IF EXISTS ${indexNames().meta}`)
    forgetTables()
  })
  checks("Loom's tables")
})
