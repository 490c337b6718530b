import assert from 'node:assert/strict'
import { before, describe, test } from 'node:test'
import type { DemoRuns as Runs } from '../lib/demo/scenarios'
import { seedDemo } from '../lib/demo/seed'
import { createMissingSchema } from '../lib/setup/init'
import { GET as block } from '../app/api/runs/[org]/[namespace]/[agent]/[runId]/blocks/[blockKey]/route'
import { POST as restore } from '../app/api/runs/[org]/[namespace]/[agent]/[runId]/blocks/[blockKey]/restore/route'
import { GET as timeline } from '../app/api/runs/[org]/[namespace]/[agent]/[runId]/timeline/route'
import { useFreshEngine } from './helpers/engine'
import { call } from './helpers/routes'

useFreshEngine('resume-evidence')

const NOW = new Date('2026-11-25T12:00:00.000Z')
let runs: Runs

const path = (r: { org: string; namespace: string; agent: string; runId: string }) => ({
  org: r.org,
  namespace: r.namespace,
  agent: r.agent,
  runId: r.runId,
})
const detail = (r: Runs['batch'], sessionId = r.sessionId) =>
  call(block, `/x?userId=${encodeURIComponent(r.userId)}&sessionId=${encodeURIComponent(sessionId)}`, {
    ...path(r),
    blockKey: 'checkpoint',
  })

before(async () => {
  await createMissingSchema({ history: true })
  runs = (await seedDemo({ seed: 42, now: NOW })).scenarioRuns
})

describe('the demo runs, told from the evidence', () => {
  test('near miss: the retry under s2 resumed from nothing while v40 sat under session s1, in the timeline resumes and the explainer', async () => {
    const tl = await call(timeline, '/x', path(runs.nearMiss))
    assert.equal(tl.status, 200)
    const resume = tl.body.resumes.find((p: { reasons: string[] }) => p.reasons.includes('run-begin'))
    assert.equal(resume.fromVersion, null)
    assert.deepEqual(
      {
        agent: resume.missed.agent,
        userId: resume.missed.userId,
        sessionId: resume.missed.sessionId,
        version: resume.missed.version,
        redone: resume.missed.unitsRedone,
      },
      { agent: runs.nearMiss.agent, userId: 'u-7', sessionId: 's1', version: '40', redone: 40 },
    )
    const d = await detail(runs.nearMiss)
    assert.match(
      d.body.resume.explanation.join('\n'),
      /from nothing \(no earlier version, so resume returned None\); v40 under session s1 existed: 40 items redone/,
    )
    assert.match(
      d.body.resume.attemptsText,
      /attempt 1 \(began .*\) wrote v1–v40 under session s1, not here; attempt 2 \(began .*\) wrote v1–v100/,
    )
  })

  test("near miss: s1's abandoned first attempt does not read 'run succeeded'", async () => {
    const d = await detail(runs.nearMiss, 's1')
    const [seg] = d.body.resume.segments
    assert.equal(seg.endedBy, 'abandoned')
    assert.equal(seg.continuedUnder.sessionId, 's2')
    assert.doesNotMatch(d.body.resume.mermaid, /run succeeded/)
    assert.match(d.body.resume.mermaid, /ended: abandoned<br\/>the run went on under session s2/)
  })

  test('migration: the process ended with the run (failed), two hours before the operator cleared it', async () => {
    const d = await detail(runs.operatorCleared)
    assert.deepEqual(
      d.body.resume.segments.map((s: { kind: string; endedBy: string; endStatus: string | null }) => [
        s.kind,
        s.endedBy,
        s.endStatus,
      ]),
      [
        ['process', 'completed', 'failed'],
        ['operator', 'cleared', null],
      ],
    )
    assert.match(d.body.resume.mermaid, /ended: run failed/)
    assert.doesNotMatch(d.body.resume.mermaid, /ended: operator/)
  })

  test('invoices: 3 attempts, attempt 2 wrote nothing and says so; the resume gap counts the operator’s v12', async () => {
    const d = await detail(runs.operatorEdited)
    assert.match(
      d.body.resume.attemptsText,
      /^3 attempts: attempt 1 .* wrote v1–v11; attempt 2 \(run\.begin time not kept\) wrote no checkpoint here; attempt 3 .* wrote v13–v20\.$/,
    )
    const resume = d.body.resume.points.find((p: { reasons: string[] }) => p.reasons.includes('run-begin'))
    assert.equal(resume.gapFrom.version, '12')
    assert.equal(resume.gapFrom.actor, 'operator:alice')
    assert.ok(resume.gapMs < 3600_000, `gap ${resume.gapMs} ms counts from the edit`)
    const text = d.body.resume.explanation.join('\n')
    assert.match(text, /without a write \(the last: v12 by operator:alice\)/)
    assert.doesNotMatch(text, /3h \d+m without a write/)
    const tl = await call(timeline, '/x', path(runs.operatorEdited))
    assert.equal(tl.body.attemptsText, d.body.resume.attemptsText)
  })

  test('a restore through the console is drawn as one: "restored v3 as v13"', async () => {
    const r = runs.tooLarge
    const before = await detail(r)
    const latest = before.body.block.version
    const res = await call(
      restore,
      '/x',
      { ...path(r), blockKey: 'checkpoint' },
      {
        method: 'POST',
        body: { version: '3', expectedVersion: latest, reason: 'back to the third step' },
        headers: { origin: 'http://127.0.0.1:3000' },
      },
    )
    assert.equal(res.status, 200, JSON.stringify(res.body))
    const v = res.body.block.version
    const d = await detail(r)
    assert.match(d.body.resume.mermaid, new RegExp(`restored v3 as v${v}`))
    assert.doesNotMatch(d.body.resume.mermaid, new RegExp(`edited: v${v}`))
    assert.match(d.body.resume.explanation.join('\n'), new RegExp(`operator:\\S+ restored v3 as v${v} at `))
  })
})
