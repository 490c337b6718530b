import assert from 'node:assert/strict'
import { before, describe, test } from 'node:test'
import { conversationAppend, conversationCreate } from '../lib/loom/conversations'
import { createMissingSchema } from '../lib/setup/init'
import { runBegin, runComplete } from '../lib/loom/runs'
import { wmSet } from '../lib/loom/working-memory'
import { runTimeline, type TimelineEvent } from '../lib/queries/timeline'
import { GET as timelineRoute } from '../app/api/runs/[org]/[namespace]/[agent]/[runId]/timeline/route'
import { useFreshEngine } from './helpers/engine'
import { call } from './helpers/routes'

useFreshEngine('api-timeline-json')

const RUN = { org: 'acme', namespace: 'prod', agent: 'crawler', runId: 'run-json' }
const identity = { ...RUN, userId: 'u1', sessionId: 's1' }
const t0 = Date.parse('2026-11-20T10:00:00.000Z')
const at = (ms: number) => () => new Date(t0 + ms)
const iso = (ms: number) => new Date(t0 + ms).toISOString()

before(async () => {
  await createMissingSchema({ history: true })
  const cp = { ...identity, blockKey: 'checkpoint' }
  await runBegin({ ...identity, goal: 'crawl "quoted" \\ pages' }, at(0))
  await wmSet(cp, JSON.stringify({ done: ['a'] }), { actor: 'crawler', sourceTrace: 'host-a', now: at(1_000) })
  await conversationCreate({ ...identity, conversationId: 'c1', title: 'talk' }, at(1_500))
  // A turn at the very millisecond of the checkpoint write: sources keep their kind order at a tie.
  await conversationAppend(
    {
      ...identity,
      conversationId: 'c1',
      role: 'user',
      content: 'naïve 🚀 "q"\nline',
      inputTokens: 1,
      outputTokens: 1,
      costUsd: 0,
    },
    at(2_000),
  )
  await wmSet(cp, JSON.stringify({ done: ['a', 'b'] }), { actor: 'crawler', sourceTrace: 'host-a', now: at(2_000) })
  // The process dies; a new one resumes at 10 minutes and writes one more unit.
  await runBegin({ ...identity, goal: '' }, at(600_000))
  await wmSet(cp, JSON.stringify({ done: ['a', 'b', 'c'] }), {
    actor: 'crawler',
    sourceTrace: 'host-b',
    now: at(601_000),
  })
  await runComplete({ ...identity, status: 'succeeded', outcome: 'done', reflection: 'three pages' }, at(602_000))
})

const brief = (e: TimelineEvent) => [e.id, e.at, e.kind, e.version, e.blockKey]

describe('GET R/timeline, written by ClickHouse', () => {
  test('the events are every source and the run row merged in time order, numbered as before, with the resume found', async () => {
    const res = await call(timelineRoute, '/x', RUN)
    assert.equal(res.status, 200)
    assert.equal(res.headers['content-type'], 'application/json')
    assert.deepEqual(res.body.events.map(brief), [
      ['begin-1', iso(0), 'run.begin', null, null],
      ['checkpoint-0', iso(1_000), 'checkpoint', '1', 'checkpoint'],
      ['checkpoint-1', iso(2_000), 'checkpoint', '2', 'checkpoint'],
      ['turn-2', iso(2_000), 'turn', null, null],
      ['begin-2', iso(600_000), 'run.begin', null, null],
      ['checkpoint-3', iso(601_000), 'checkpoint', '3', 'checkpoint'],
      ['complete', iso(602_000), 'run.complete', null, null],
    ])
    const turn = res.body.events[3]
    assert.equal(turn.detail, 'naïve 🚀 "q"\nline')
    assert.equal(turn.ref, 'c1#0')
    assert.equal(res.body.events[6].label, 'run.complete: succeeded')
    assert.equal(res.body.events[6].detail, 'three pages')
    assert.equal(res.body.total, 7)
    assert.equal(res.body.truncated, false)
    assert.equal(res.body.resumes.length, 1)
    assert.equal(res.body.resumes[0].fromVersion, '2')
    assert.equal(res.body.resumes[0].firstWrite.version, '3')
    // The values the pages and the export use are the same document.
    assert.deepEqual(res.body, JSON.parse(JSON.stringify(await runTimeline(RUN))))
  })

  test('a limit keeps a prefix in time, counts every event, and reads resume writes only from what it shows', async () => {
    const res = await call(timelineRoute, '/x?limit=4', RUN)
    assert.equal(res.status, 200)
    assert.deepEqual(
      res.body.events.map((e: TimelineEvent) => e.id),
      ['begin-1', 'checkpoint-0', 'checkpoint-1', 'turn-2'],
    )
    assert.equal(res.body.total, 7)
    assert.equal(res.body.truncated, true)
    assert.equal(res.body.limit, 4)
    // The second begin comes from the run row; its first write (v3) is past the cut, so none is named.
    assert.equal(res.body.resumes.length, 1)
    assert.equal(res.body.resumes[0].fromVersion, '2')
    assert.equal(res.body.resumes[0].firstWrite, null)
  })

  test('an unknown run is a 404; a run with a run row only answers its begin', async () => {
    assert.equal((await call(timelineRoute, '/x', { ...RUN, runId: 'nope' })).status, 404)
    await runBegin({ ...RUN, runId: 'run-bare', userId: '', sessionId: '', goal: 'bare' }, at(0))
    const bare = await call(timelineRoute, '/x', { ...RUN, runId: 'run-bare' })
    assert.equal(bare.status, 200)
    assert.deepEqual(bare.body.events.map(brief), [['begin-1', iso(0), 'run.begin', null, null]])
  })
})
