import assert from 'node:assert/strict'
import { before, describe, test } from 'node:test'
import { runBegin, runComplete } from '../lib/loom/runs'
import { wmSet, wmDelete } from '../lib/loom/working-memory'
import { flagsOfRuns } from '../lib/run-set/run-flags'
import { invalidateReadCache } from '../lib/server/read-cache'
import { ensureReady } from '../lib/server/ready'
import { RunFragments } from '../lib/server/run-fragments'
import { useFreshEngine } from './helpers/engine'
import { call } from './helpers/routes'
import { apiRoutes as routes } from './helpers/api-routes'
import { statementsSent } from './helpers/statements'

useFreshEngine('run-fragments')

const ORG = 'acme'
const NS = 'prod'
const agent = { actor: 'worker', sourceTrace: 'host-a/pid-1' }
const runs = Array.from({ length: 6 }, (_, i) => ({
  org: ORG,
  namespace: NS,
  agent: i % 2 ? 'crawler' : 'planner',
  runId: `run-f${i}`,
}))

const FLAG_STATEMENT = /run_index_flags/
const CHECKPOINT_STATEMENT = /run_index_checkpoints FINAL/

type Listed = {
  runId: string
  agent: string
  flags: string[]
  checkpoint: { version: string; isDeleted: boolean } | null
}
const byId = (body: { runs: Listed[] }) => new Map(body.runs.map((r) => [r.runId, r]))

before(async () => {
  await ensureReady()
  for (const [i, r] of runs.entries()) {
    await runBegin({ ...r, userId: '', sessionId: '', goal: `goal ${i}` })
    await wmSet({ ...r, userId: '', sessionId: '', blockKey: 'checkpoint' }, `item-${i}`, agent)
    // Three attempts that did not succeed: a crash loop.
    if (i === 3) {
      await runBegin({ ...r, userId: '', sessionId: '', goal: `goal ${i}` })
      await runBegin({ ...r, userId: '', sessionId: '', goal: `goal ${i}` })
      await runComplete({ ...r, status: 'failed' })
    }
  }
})

describe('per-run pieces kept a moment', () => {
  test('a second list showing the same runs reads no flags or checkpoints again, and shows the same', async () => {
    invalidateReadCache()
    const first = await statementsSent(() => call(routes.runs, `/api/runs?org=${ORG}`))
    assert.equal(first.result.status, 200)
    assert.equal(first.sent.filter((s) => FLAG_STATEMENT.test(s)).length, 1, 'the first page computes its runs’ flags')
    assert.equal(first.sent.filter((s) => CHECKPOINT_STATEMENT.test(s)).length, 1)
    // Another filter (a different request, so no answer is shared) over some of the same runs.
    const second = await statementsSent(() => call(routes.runs, `/api/runs?org=${ORG}&agent=crawler`))
    assert.equal(second.result.status, 200)
    assert.equal(
      second.sent.filter((s) => FLAG_STATEMENT.test(s) || CHECKPOINT_STATEMENT.test(s)).length,
      0,
      second.sent.join('\n---\n'),
    )
    const a = byId(first.result.body)
    for (const r of second.result.body.runs as Listed[]) {
      assert.equal(r.agent, 'crawler')
      assert.deepEqual(r.flags, a.get(r.runId)?.flags, r.runId)
      assert.deepEqual(r.checkpoint, a.get(r.runId)?.checkpoint, r.runId)
    }
    // What was kept is what a fresh computation says.
    const fresh = await flagsOfRuns(
      runs.map((r) => ({ org: r.org, namespace: r.namespace, agent: r.agent, run_id: r.runId })),
      true,
      undefined,
      new Date(),
    )
    for (const r of first.result.body.runs as Listed[])
      assert.deepEqual(r.flags, fresh.get(JSON.stringify([ORG, NS, r.agent, r.runId])), r.runId)
    assert.deepEqual(a.get('run-f3')?.flags, ['resumed', 'crash_loop'])
  })

  test('a write through the console shows on the next read; the other runs stay kept', async () => {
    invalidateReadCache()
    await call(routes.runs, `/api/runs?org=${ORG}`)
    const target = runs[1]
    const block = { ...target, userId: '', sessionId: '', blockKey: 'checkpoint' }
    const written = await wmDelete(block, agent)
    // Another run's header still finds its flags kept; the written run's are read again.
    const header = (r: (typeof runs)[number]) =>
      statementsSent(() => call(routes.run, `/api/runs/${r.org}/${r.namespace}/${r.agent}/${r.runId}`, r))
    const other = await header(runs[2])
    assert.equal(
      other.sent.filter((s) => FLAG_STATEMENT.test(s)).length,
      0,
      'kept flags of a run the write did not touch',
    )
    const own = await header(target)
    assert.equal(own.sent.filter((s) => FLAG_STATEMENT.test(s)).length, 1, 'the written run’s flags are read again')
    const after = await call(routes.runs, `/api/runs?org=${ORG}&limit=40`)
    const listed = byId(after.body).get(target.runId)
    assert.equal(listed?.checkpoint?.version, written.row.version, 'the tombstone the write made')
    assert.equal(listed?.checkpoint?.isDeleted, true)
  })

  test('the run header reads its flags from what a list kept', async () => {
    invalidateReadCache()
    await call(routes.runs, `/api/runs?org=${ORG}`)
    const r = runs[3]
    const header = await statementsSent(() =>
      call(routes.run, `/api/runs/${r.org}/${r.namespace}/${r.agent}/${r.runId}`, r),
    )
    assert.equal(header.result.status, 200)
    assert.deepEqual(header.result.body.run.flags, ['resumed', 'crash_loop'])
    assert.equal(header.sent.filter((s) => FLAG_STATEMENT.test(s)).length, 0)
  })
})

describe('RunFragments', () => {
  const key = (id: string) => ({ org: 'o', namespace: 'n', agent: 'a', run_id: id })
  const k = (id: string) => JSON.stringify(['o', 'n', 'a', id])

  test('computes nothing when it holds every run, all of them when one is missing, and keeps nothing of a run written while it computed', async () => {
    const f = new RunFragments<string>(60_000)
    const asked: string[][] = []
    const compute = async (missing: { run_id: string }[]) => {
      asked.push(missing.map((m) => m.run_id))
      return new Map(missing.map((m) => [k(m.run_id), `v-${m.run_id}`]))
    }
    await f.many([key('x'), key('y')], compute, () => '')
    await f.many([key('y'), key('x')], compute, () => '')
    const got = await f.many([key('x'), key('z')], compute, () => '')
    assert.deepEqual(asked, [
      ['x', 'y'],
      ['x', 'z'],
    ])
    assert.equal(got.get(k('x')), 'v-x')

    // A write to y lands while y is being computed again: that answer is used once, not kept.
    f.changed([{ org: 'o', namespace: 'n', runId: 'y' }])
    let release!: () => void
    const gate = new Promise<void>((r) => (release = r))
    const pending = f.many(
      [key('y')],
      async (missing) => {
        await gate
        return compute(missing)
      },
      () => '',
    )
    f.changed([{ org: 'o', namespace: 'n', runId: 'y' }])
    release()
    assert.equal((await pending).get(k('y')), 'v-y')
    await f.many([key('y')], compute, () => '')
    assert.deepEqual(asked.slice(2), [['y'], ['y']])
  })

  test('a run the computation leaves out gets the empty value; a change to any run drops everything', async () => {
    const f = new RunFragments<string[]>(60_000)
    let calls = 0
    const got = await f.many(
      [key('p')],
      async () => {
        calls++
        return new Map()
      },
      () => [],
    )
    assert.deepEqual(got.get(k('p')), [])
    f.changed(null)
    await f.many(
      [key('p')],
      async () => {
        calls++
        return new Map()
      },
      () => [],
    )
    assert.equal(calls, 2)
  })
})
