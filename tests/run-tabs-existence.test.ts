import assert from 'node:assert/strict'
import { before, describe, test } from 'node:test'
import { runBegin } from '../lib/loom/runs'
import { wmSet } from '../lib/loom/working-memory'
import { getRunDetail, requireRun } from '../lib/queries/run-detail'
import { ensureReady } from '../lib/server/ready'
import { useFreshEngine } from './helpers/engine'
import { call } from './helpers/routes'
import { apiRoutes as routes } from './helpers/api-routes'
import { statementsSent } from './helpers/statements'

useFreshEngine('run-tabs-existence')

/** A run with a run row and nothing else; a checkpoint-only run; and a run_id known only under another agent. */
const ROW_ONLY = { org: 'acme', namespace: 'prod', agent: 'planner', runId: 'run-row-only' }
const CP_ONLY = { org: 'acme', namespace: 'prod', agent: 'crawler', runId: 'run-cp-only' }
const ELSEWHERE = { ...ROW_ONLY, agent: 'someone-else' }
const UNKNOWN = { ...ROW_ONLY, runId: 'run-never-written' }

const TABS = ['timeline', 'blocks', 'conversations', 'audit', 'searches', 'memories', 'blobs'] as const
const url = (r: typeof ROW_ONLY, tab: string) => `/api/runs/${r.org}/${r.namespace}/${r.agent}/${r.runId}/${tab}`

/** How many statements `fn` sends. */
async function counted<T>(fn: () => Promise<T>): Promise<{ result: T; statements: number }> {
  const { result, sent } = await statementsSent(fn)
  return { result, statements: sent.length }
}

before(async () => {
  await ensureReady()
  await runBegin({ ...ROW_ONLY, userId: '', sessionId: '', goal: 'plan the week' })
  await wmSet({ ...CP_ONLY, userId: 'u1', sessionId: 's1', blockKey: 'checkpoint' }, 'page-1', {
    actor: 'crawler',
    sourceTrace: 'h/1',
  })
})

describe('a run-scoped tab with nothing to show', () => {
  for (const tab of TABS) {
    test(`${tab}: an existing run answers empty, an unknown one 404, and telling them apart is one statement`, async () => {
      // Read once so the tables-present lookup (kept a minute) is not counted below.
      await call(routes[tab], url(ROW_ONLY, tab), ROW_ONLY)
      const { result: rowOnly, statements } = await counted(() => call(routes[tab], url(ROW_ONLY, tab), ROW_ONLY))
      assert.equal(rowOnly.status, 200, `${tab} of a run with only a run row`)
      const cpOnly = await call(routes[tab], url(CP_ONLY, tab), CP_ONLY)
      assert.equal(cpOnly.status, 200, `${tab} of a checkpoint-only run`)
      for (const missing of [UNKNOWN, ELSEWHERE]) {
        const res = await call(routes[tab], url(missing, tab), missing)
        assert.equal(res.status, 404, `${tab} of ${missing.agent}/${missing.runId}`)
        assert.match(res.body.error.message, new RegExp(`No run ${missing.runId} under acme/prod/${missing.agent}`))
      }
      // Telling an empty run from an unknown one is one statement (requireRun) beside the tab's own reads.
      const { statements: existence } = await counted(() => requireRun(ROW_ONLY))
      assert.equal(existence, 1)
      assert.ok(statements <= 3, `${tab}: ${statements} statements for an empty tab`)
    })
  }
})

describe('the run header', () => {
  test('is one statement of key lookups for a run with a row, a checkpoint-only run and an unknown one (404)', async () => {
    await getRunDetail(ROW_ONLY)
    const rowOnly = await counted(() => getRunDetail(ROW_ONLY))
    assert.equal(rowOnly.statements, 1)
    assert.equal(rowOnly.result.run.goal, 'plan the week')
    assert.equal(rowOnly.result.run.hasRunRow, true)
    assert.equal(rowOnly.result.counts.versions, 0)
    const cpOnly = await counted(() => getRunDetail(CP_ONLY))
    assert.equal(cpOnly.statements, 1)
    assert.equal(cpOnly.result.run.hasRunRow, false)
    assert.equal(cpOnly.result.run.status, 'unknown')
    assert.deepEqual([cpOnly.result.run.userId, cpOnly.result.run.sessionId], ['u1', 's1'])
    assert.equal(cpOnly.result.run.checkpoint?.version, '1')
    assert.deepEqual([cpOnly.result.counts.blocks, cpOnly.result.counts.versions], [1, 1])
    const unknown = await counted(() =>
      getRunDetail(UNKNOWN).then(
        () => null,
        (err: { status?: number }) => err.status,
      ),
    )
    assert.equal(unknown.result, 404)
    assert.equal(unknown.statements, 1)
  })
})
