import assert from 'node:assert/strict'
import { before, describe, test } from 'node:test'
import { createMissingSchema } from '../lib/setup/init'
import { runBegin } from '../lib/loom/runs'
import { wmSet } from '../lib/loom/working-memory'
import { runTimeline } from '../lib/queries/timeline'
import { useFreshEngine } from './helpers/engine'

useFreshEngine('timeline-whole-states')

const run = { org: 'acme', namespace: 'docs', agent: 'indexer', runId: 'long-state', userId: '', sessionId: '' }
const inserted = { ...run, runId: 'hole-filled' }
const notes = 'n'.repeat(2500)
const state = (done: string[]) => JSON.stringify({ notes, done })

before(async () => {
  await createMissingSchema({ history: true })
  const t0 = Date.parse('2026-11-20T10:00:00.000Z')
  const at = (ms: number) => () => new Date(t0 + ms)
  const ref = { ...run, blockKey: 'checkpoint' }
  await runBegin({ ...run, goal: 'index with long notes' }, at(0))
  await wmSet(ref, state(['a']), { actor: 'indexer', sourceTrace: 'host-a/pid-1', now: at(1_000) })
  await wmSet(ref, state(['a', 'b']), { actor: 'indexer', sourceTrace: 'host-a/pid-1', now: at(2_000) })
  await runBegin({ ...run, goal: '' }, at(600_000))
  await wmSet(ref, state(['a', 'b', 'c']), { actor: 'indexer', sourceTrace: 'host-b/pid-2', now: at(601_000) })

  // A resumed process that inserts one id in the middle of the list.
  const ref2 = { ...inserted, blockKey: 'checkpoint' }
  await runBegin({ ...inserted, goal: 'index, then fill a hole' }, at(0))
  await wmSet(ref2, state(['doc-1', 'doc-3', 'doc-4', 'doc-5']), {
    actor: 'indexer',
    sourceTrace: 'host-a/pid-1',
    now: at(1_000),
  })
  await runBegin({ ...inserted, goal: '' }, at(600_000))
  await wmSet(ref2, state(['doc-1', 'doc-2', 'doc-3', 'doc-4', 'doc-5']), {
    actor: 'indexer',
    sourceTrace: 'host-b/pid-2',
    now: at(601_000),
  })
})

describe('timeline resume summaries come from whole versions', () => {
  test('states that differ only past the cut payload are summarized from the whole versions', async () => {
    const res = { body: await runTimeline(run) }
    const cps = res.body.events.filter((e) => e.kind === 'checkpoint')
    assert.equal(cps.length, 3)
    assert.ok(
      cps.every((e) => e.detail.length === 2000),
      'the event payloads are cut',
    )
    assert.equal(res.body.resumes.length, 1)
    const [p] = res.body.resumes
    assert.equal(p.fromVersion, '2')
    assert.equal(p.unitsDone, 2)
    assert.deepEqual(p.firstWrite, { version: '3', at: '2026-11-20T10:10:01.000Z', summary: 'added $.done[2]' })
  })

  test('a resume summary is built from the sequence diff: one id inserted is one insert', async () => {
    const { resumes } = await runTimeline(inserted)
    assert.equal(resumes.length, 1)
    assert.equal(resumes[0].unitsDone, 4)
    assert.equal(resumes[0].firstWrite?.summary, 'added $.done[1]')
  })
})
