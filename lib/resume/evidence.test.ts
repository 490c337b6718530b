import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { accountAttempts, describeAttempts } from './attempts'
import { detectResumePoints } from './detect'
import { markMissedCheckpoints } from './elsewhere'
import { explainResume } from './explain'
import { FLOW_LIST_THRESHOLD, flowNodes, resumeFlowMermaid } from './mermaid'
import { batchState, iso, row as versionRow } from './resume-test-rows'
import { segments } from './segments'
import type { ElsewhereRow, VersionInput } from './types'

const T0 = Date.parse('2026-11-20T07:32:00.000Z')
const S = 1000
const MIN = 60 * S
const H = 60 * MIN
const items = batchState

/** A version row written by the actor `agent`. */
const row = (version: number, t: number, trace: string, content: string, extra: Partial<VersionInput> = {}) =>
  versionRow(version, t, trace, content, { actor: 'agent', ...extra })

describe('the near miss: s1 wrote v1–v40, the retry under s2 resumed from nothing and redid them', () => {
  const s1: VersionInput[] = Array.from({ length: 40 }, (_, i) =>
    row(i + 1, T0 + i * 10 * S, 'host-c/pid-1', items(i + 1)),
  )
  const retry = T0 + 4 * H
  const s2: VersionInput[] = Array.from({ length: 100 }, (_, i) =>
    row(i + 1, retry + 10 * S + i * 10 * S, 'host-d/pid-2', items(i + 1)),
  )
  const completedAt = iso(retry + 10 * S + 100 * 10 * S)
  const asElsewhere = (rows: VersionInput[], sessionId: string): ElsewhereRow[] =>
    rows.map((r) => ({
      agent: 'report-writer',
      userId: 'u-7',
      sessionId,
      version: r.version,
      updatedAt: r.updatedAt,
      isDeleted: r.isDeleted,
      content: r.content,
    }))
  const S1 = { agent: 'report-writer', userId: 'u-7', sessionId: 's1' }
  const S2 = { agent: 'report-writer', userId: 'u-7', sessionId: 's2' }

  test("s1's only segment was abandoned (the run went on under session s2), not 'run succeeded'", () => {
    const segs = segments(s1, [], {
      runStatus: 'succeeded',
      completedAt,
      identity: S1,
      elsewhere: asElsewhere(s2, 's2'),
    })
    assert.equal(segs.length, 1)
    assert.equal(segs[0].endedBy, 'abandoned')
    assert.deepEqual(segs[0].continuedUnder, S2)
    const text = resumeFlowMermaid(segs, [], { identity: S1 })
    assert.match(text, /ended: abandoned<br\/>the run went on under session s2"\]/)
    assert.doesNotMatch(text, /run succeeded/)
  })

  test("s2's resume says what it could not see: v40 under session s1, 40 items redone; its segment carries the run's status", () => {
    const begins = [{ attempt: 2, at: iso(retry) }]
    const points = markMissedCheckpoints(detectResumePoints(s2, { begins }), s2, S2, asElsewhere(s1, 's1'))
    assert.equal(points.length, 1)
    assert.deepEqual(points[0].missed, {
      ...S1,
      version: '40',
      updatedAt: s1[39].updatedAt,
      unitsDone: 40,
      unitsRedone: 40,
      under: 'session s1',
    })
    const [sentence] = explainResume(points, S2)
    assert.match(
      sentence,
      /resumed at .* from nothing \(no earlier version, so resume returned None\); v40 under session s1 existed: 40 items redone; its first write v1/,
    )
    const segs = segments(s2, points, {
      runStatus: 'succeeded',
      completedAt,
      identity: S2,
      elsewhere: asElsewhere(s1, 's1'),
    })
    assert.deepEqual(
      segs.map((s) => [s.endedBy, s.endStatus]),
      [['completed', 'succeeded']],
    )
    // The diagram draws both identities: s1's missed checkpoint feeds, dotted, into the segment that started over.
    const nodes = flowNodes(segs, points, S2)
    assert.deepEqual(
      nodes.map((n) => n.id),
      [`${segs[0].id}_missed`, segs[0].id],
    )
    assert.deepEqual(nodes[0].lines.slice(0, 3), ['under session s1', 'checkpoint v40', '40 items done'])
    const text = resumeFlowMermaid(segs, points, { identity: S2 })
    assert.match(
      text,
      new RegExp(`${segs[0].id}_missed -\\.->\\|"not seen by this resume: 40 redone"\\| ${segs[0].id}`),
    )
  })

  test('a resume from an older version than one elsewhere counts only the difference', () => {
    const mine = [
      row(1, T0, 'a', items(10)),
      row(2, T0 + 3 * H, 'b', items(11)),
      row(3, T0 + 3 * H + 10 * S, 'b', items(30)),
    ]
    const other = asElsewhere([row(7, T0 + H, 'x', items(25))], 's9')
    const points = markMissedCheckpoints(detectResumePoints(mine), mine, S1, other)
    assert.equal(points[0].fromVersion, '1')
    assert.equal(points[0].missed?.version, '7')
    assert.equal(points[0].missed?.unitsRedone, 15, '25 there, 10 read, 30 reached: 15 done again')
    // An older checkpoint elsewhere is no near miss.
    const older = asElsewhere([row(7, T0 - H, 'x', items(25))], 's9')
    assert.equal(markMissedCheckpoints(detectResumePoints(mine), mine, S1, older)[0].missed, null)
  })
})

describe('segment endings from the evidence', () => {
  test('a migration that failed, then an operator cleared it two hours later: the process ended with the run, the clear is named', () => {
    const rows = [1, 2, 3, 4, 5].map((k) =>
      row(k, T0 + k * 30 * S, 'host-a/pid-1', ['0038', '0039', '0040', '0041', '0042'].slice(0, k).join(' ')),
    )
    rows.push(row(6, T0 + 2 * H, 'loom-runs-console', '', { isDeleted: true, actor: 'operator:alice' }))
    const points = detectResumePoints(rows)
    const segs = segments(rows, points, { runStatus: 'failed', completedAt: iso(T0 + 4 * MIN) })
    assert.deepEqual(
      segs.map((s) => [s.kind, s.endedBy, s.endStatus]),
      [
        ['process', 'completed', 'failed'],
        ['operator', 'cleared', null],
      ],
    )
    const text = resumeFlowMermaid(segs, points)
    assert.match(text, /s1\[".*ended: run failed"\]/)
    assert.doesNotMatch(text, /ended: operator/)
    assert.match(text, /cleared: tombstone v6/)
  })

  test('a restore is named as one ("restored v3 as v6"), in the sentence and the diagram', () => {
    const rows = [1, 2, 3, 4, 5].map((k) => row(k, T0 + k * 10 * S, 'host-a/pid-1', items(k)))
    rows.push(row(6, T0 + H, 'loom-runs-console', items(3), { actor: 'operator:alice' }))
    const points = detectResumePoints(rows, { operatorActions: [{ version: '6', action: 'restore' }] })
    assert.deepEqual(points[0].reasons, ['operator-restore'])
    assert.equal(points[0].restoredFrom, '3')
    assert.match(
      explainResume(points)[0],
      /^operator:alice restored v3 as v6 at .*, replacing v5 \(removed item-004, item-005\)$/,
    )
    const text = resumeFlowMermaid(segments(rows, points), points)
    assert.match(text, /restored v3 as v6/)
    assert.doesNotMatch(text, /edited: v6/)
  })

  test('consecutive operator actions fold into one node with a count, each named', () => {
    const rows = [1, 2].map((k) => row(k, T0 + k * 10 * S, 'host-a/pid-1', items(k)))
    rows.push(row(3, T0 + H, 'c', items(5), { actor: 'operator:alice' }))
    rows.push(row(4, T0 + H + MIN, 'c', '', { actor: 'operator:bob', isDeleted: true }))
    rows.push(row(5, T0 + H + 2 * MIN, 'c', items(2), { actor: 'operator:alice' }))
    rows.push(row(6, T0 + 2 * H, 'host-b/pid-2', items(3)))
    const points = detectResumePoints(rows, { operatorActions: [{ version: '5', action: 'restore' }] })
    const segs = segments(rows, points, { runStatus: 'succeeded' })
    assert.deepEqual(
      segs.map((s) => [s.kind, s.writes]),
      [
        ['process', 2],
        ['operator', 3],
        ['process', 1],
      ],
    )
    const nodes = flowNodes(segs, points)
    assert.deepEqual(nodes[1].lines.slice(0, 5), [
      'operator:alice, operator:bob',
      '3 operator actions',
      'edited: v3',
      'cleared: tombstone v4',
      'restored v2 as v5',
    ])
    assert.equal(segs[0].endedBy, 'crashed', 'a later process resumed after it')
  })

  test('a gap counts every write and says whose was last: 42 minutes after the operator, not 3h 39m after the agent', () => {
    const rows = [1, 2, 3].map((k) => row(k, T0 + k * 10 * S, 'host-c/pid-1', JSON.stringify({ cursor: k })))
    const edit = T0 + 30 * S + 2 * H + 57 * MIN
    rows.push(row(4, edit, 'loom-runs-console', JSON.stringify({ cursor: 5 }), { actor: 'operator:alice' }))
    rows.push(row(5, edit + 42 * MIN, 'host-b/pid-2', JSON.stringify({ cursor: 6 })))
    const points = detectResumePoints(rows, { begins: [{ attempt: 3, at: iso(edit + 41 * MIN) }] })
    const resume = points[1]
    assert.equal(resume.gapMs, 42 * MIN)
    assert.equal(resume.gapFrom?.actor, 'operator:alice')
    const sentence = explainResume(points)[1]
    assert.match(sentence, /42m 0s without a write \(the last: v4 by operator:alice\)/)
    assert.doesNotMatch(sentence, /3h 39m/)
  })
})

describe('attempts that agree with the account', () => {
  test('3 attempts where the second wrote nothing: every attempt is listed, attempt 2 says so', () => {
    const rows = [1, 2, 3].map((k) => row(k, T0 + k * 10 * S, 'host-c/pid-1', items(k)))
    rows.push(row(4, T0 + 3 * H, 'loom-runs-console', items(4), { actor: 'operator:alice' }))
    rows.push(row(5, T0 + 4 * H, 'host-b/pid-2', items(5)))
    const begins = { attempts: 3, startedAt: iso(T0), lastBeginAt: iso(T0 + 4 * H - MIN) }
    const points = detectResumePoints(rows, { begins })
    const segs = segments(rows, points, { runStatus: 'succeeded' })
    const notes = accountAttempts(segs, points, {
      attempts: 3,
      startedAt: begins.startedAt,
      begins: [{ attempt: 3, at: begins.lastBeginAt }],
    })
    assert.deepEqual(
      notes.map((n) => [n.attempt, n.wrote?.from ?? null, n.wrote?.to ?? null]),
      [
        [1, '1', '3'],
        [2, null, null],
        [3, '5', '5'],
      ],
    )
    const text = describeAttempts(notes)
    assert.match(
      text ?? '',
      /^3 attempts: attempt 1 \(began .*\) wrote v1–v3; attempt 2 \(run\.begin time not kept\) wrote no checkpoint here; attempt 3 \(began .*\) wrote v5\.$/,
    )
  })

  test('an attempt that wrote under another session says where', () => {
    const own = { agent: 'w', userId: 'u', sessionId: 's2' }
    const rows = [row(1, T0 + 5 * H, 'b', items(1))]
    const begins = [{ attempt: 2, at: iso(T0 + 5 * H - MIN) }]
    const points = detectResumePoints(rows, { begins })
    const elsewhere: ElsewhereRow[] = [1, 2].map((k) => ({
      agent: 'w',
      userId: 'u',
      sessionId: 's1',
      version: String(k),
      updatedAt: iso(T0 + k * MIN),
      isDeleted: false,
      content: items(k),
    }))
    const notes = accountAttempts(segments(rows, points), points, {
      attempts: 2,
      startedAt: iso(T0),
      begins,
      identity: own,
      elsewhere,
    })
    assert.match(
      describeAttempts(notes, own) ?? '',
      /attempt 1 \(began .*\) wrote v1–v2 under session s1, not here; attempt 2 .* wrote v1/,
    )
  })
})

describe('long runs stay readable', () => {
  test(`past ${FLOW_LIST_THRESHOLD} nodes the flow is a list of the same lines as the diagram`, () => {
    const rows: VersionInput[] = []
    for (let p = 0; p < 14; p++)
      for (let k = 0; k < 3; k++)
        rows.push(row(p * 3 + k + 1, T0 + p * H + k * 10 * S, `host-${p}/pid-${p}`, items(p * 3 + k + 1)))
    const points = detectResumePoints(rows)
    const segs = segments(rows, points, { runStatus: 'failed' })
    const nodes = flowNodes(segs, points)
    assert.equal(nodes.length, 14)
    assert.ok(nodes.length > FLOW_LIST_THRESHOLD)
    const text = resumeFlowMermaid(segs, points)
    for (const n of nodes) assert.ok(text.includes(`  ${n.id}["${n.lines.join('<br/>')}"]`), n.id)
    assert.equal(segs.filter((s) => s.endedBy === 'crashed').length, 13)
    assert.equal(segs[13].endStatus, 'failed')
  })
})

describe('many attempts whose begin times are lost', () => {
  test('told once, with the versions the processes without a run.begin wrote', () => {
    const rows: VersionInput[] = []
    for (let p = 0; p < 5; p++)
      for (let k = 0; k < 2; k++)
        rows.push(row(p * 2 + k + 1, T0 + p * H + k * 10 * S, `host-${p}`, items(p * 2 + k + 1)))
    const begins = { attempts: 5, startedAt: iso(T0 - S), lastBeginAt: iso(T0 + 4 * H - S) }
    const points = detectResumePoints(rows, { begins })
    const notes = accountAttempts(segments(rows, points), points, {
      attempts: 5,
      startedAt: begins.startedAt,
      begins: [{ attempt: 5, at: begins.lastBeginAt }],
    })
    assert.match(
      describeAttempts(notes) ?? '',
      /^5 attempts: attempt 1 \(began .*\) wrote v1–v2; attempts 2–4 \(run\.begin times not kept\): 3 processes here with no run\.begin matched wrote v3–v8; which attempt wrote which is not known; attempt 5 \(began .*\) wrote v9–v10\.$/,
    )
  })
})
