import assert from 'node:assert/strict'
import { before, describe, test } from 'node:test'
import { runBegin, runComplete } from '../lib/loom/runs'
import { wmSet } from '../lib/loom/working-memory'
import { decodeCursor } from '../lib/api/cursor'
import { listRuns } from '../lib/queries/runs'
import { ensureReady } from '../lib/server/ready'
import { useFreshEngine } from './helpers/engine'
import { statementsSent } from './helpers/statements'

useFreshEngine('list-scan')

const ORG = 'acme'
const NS = 'prod'
const agent = { actor: 'worker', sourceTrace: 'host-a/pid-1' }
/** Eight runs, each with several run-row versions (begin, usage, complete) and one checkpoint-only run. */
const runs = Array.from({ length: 8 }, (_, i) => ({ org: ORG, namespace: NS, agent: 'planner', runId: `run-s${i}` }))

/** The list's index windows sent while `fn` runs. */
async function windows<T>(fn: () => Promise<T>): Promise<{ result: T; rounds: number }> {
  const { result, sent } = await statementsSent(fn)
  return { result, rounds: sent.filter((q) => /run_index_orphans/.test(q) && /LIMIT \{window:UInt32\}/.test(q)).length }
}

before(async () => {
  await ensureReady()
  for (const [i, r] of runs.entries()) {
    const at = (m: number) => () => new Date(Date.UTC(2026, 10, 20, 10, i, m))
    await runBegin({ ...r, userId: '', sessionId: '', goal: `goal ${i}` }, at(0))
    await runBegin({ ...r, userId: '', sessionId: '', goal: `goal ${i}` }, at(1))
    await runComplete({ ...r, status: i % 4 === 0 ? 'failed' : 'succeeded' }, at(2))
  }
  await wmSet(
    { org: ORG, namespace: NS, agent: 'loner', userId: 'u', sessionId: 's', runId: 'run-cp', blockKey: 'checkpoint' },
    'x',
    agent,
  )
})

describe('the runs list reads the index in windows', () => {
  test('a filter with fewer runs than a page costs one window, not a second empty one', async () => {
    const { result, rounds } = await windows(() => listRuns({ filter: { org: ORG, status: 'failed' }, limit: 50 }))
    assert.deepEqual(
      result.runs.map((r) => r.runId),
      ['run-s4', 'run-s0'],
    )
    assert.equal(result.nextCursor, null)
    assert.equal(rounds, 1)
  })

  test('small pages still walk every run once, in order, with unmerged versions in the windows', async () => {
    const seen: string[] = []
    let cursor: string | null | undefined
    do {
      const page = await listRuns({
        filter: { org: ORG },
        limit: 3,
        cursor: (cursor && decodeCursor(cursor)) || undefined,
      })
      seen.push(...page.runs.map((r) => r.runId))
      cursor = page.nextCursor
    } while (cursor)
    assert.deepEqual(seen, ['run-cp', 'run-s7', 'run-s6', 'run-s5', 'run-s4', 'run-s3', 'run-s2', 'run-s1', 'run-s0'])
  })
})
