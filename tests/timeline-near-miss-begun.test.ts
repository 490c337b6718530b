import assert from 'node:assert/strict'
import { before, describe, test } from 'node:test'
import { createMissingSchema } from '../lib/setup/init'
import { runBegin } from '../lib/loom/runs'
import { wmSet } from '../lib/loom/working-memory'
import { runTimeline } from '../lib/queries/timeline'
import { useFreshEngine } from './helpers/engine'

useFreshEngine('timeline-near-miss-begun')

const base = { org: 'acme', namespace: 'prod', agent: 'digest-writer', userId: 'u-9', runId: 'near-miss-begun' }
const items = (n: number) => Array.from({ length: n }, (_, i) => `item-${i + 1}`).join(' ')
const t0 = Date.parse('2026-11-20T10:00:00.000Z')
const at = (ms: number) => () => new Date(t0 + ms)

before(async () => {
  await createMissingSchema({ history: true })
  const first = { ...base, sessionId: 'b1' }
  await runBegin({ ...first, goal: 'write the digest' }, at(0))
  for (let k = 1; k <= 6; k++)
    await wmSet({ ...first, blockKey: 'checkpoint' }, items(k), {
      actor: 'digest-writer',
      sourceTrace: 'host-p/pid-1',
      now: at(k * 10_000),
    })
  // The retry, as another session, has begun and written nothing yet.
  await runBegin({ ...base, sessionId: 'b2', goal: '' }, at(3_600_000))
})

describe('a near miss seen at once', () => {
  test("the new process's resume entry names the checkpoint it cannot see before it writes anything", async () => {
    const t = await runTimeline({ org: base.org, namespace: base.namespace, agent: base.agent, runId: base.runId })
    const resume = t.resumes.find((p) => p.attempt === 2)
    assert.ok(resume, 'attempt 2 has a resume entry')
    assert.equal(resume.firstWrite, null)
    assert.equal(resume.at, new Date(t0 + 3_600_000).toISOString())
    assert.deepEqual(
      resume.missed && {
        sessionId: resume.missed.sessionId,
        version: resume.missed.version,
        unitsDone: resume.missed.unitsDone,
        under: resume.missed.under,
      },
      { sessionId: 'b1', version: '6', unitsDone: 6, under: 'session b1' },
    )
  })

  test("each run.begin carries the identity it began under, not the run row's latest", async () => {
    const t = await runTimeline({ org: base.org, namespace: base.namespace, agent: base.agent, runId: base.runId })
    const begins = t.events.filter((e) => e.kind === 'run.begin').map((e) => [e.id, e.userId, e.sessionId])
    assert.deepEqual(begins, [
      ['begin-1', 'u-9', 'b1'],
      ['begin-2', 'u-9', 'b2'],
    ])
  })
})
