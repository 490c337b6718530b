import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { detectResumePoints, findVersionTies, gapStats, isNearLimit } from './detect'
import { explainResume } from './explain'
import { mermaidText, resumeFlowMermaid } from './mermaid'
import type { Segment } from './types'
import {
  at,
  batchState,
  HOST_A,
  HOST_B,
  iso,
  parseMermaid,
  resumeAfter,
  resumePoint,
  row,
  tombstone,
} from './resume-test-rows'
import { silentAttempts, silentAttemptText, type AttemptNote } from './attempts'
import { sortVersions } from './rows'
import { segments } from './segments'

describe('version ties and ordering', () => {
  test('findVersionTies lists versions on more than one row, numerically ascending', () => {
    const t = at('2026-11-22T12:00:00.000Z')
    const versions = ['10', '3', '10', '11', '3', '10', '2'].map((v, i) => row(v, t + i, HOST_A, 'x-1'))
    assert.deepEqual(findVersionTies(versions), ['3', '10'])
    assert.deepEqual(findVersionTies(versions.slice(0, 2)), [])
    assert.deepEqual(findVersionTies([]), [])
  })

  test('UInt64 versions beyond 2^53 sort as BigInt', () => {
    const t = at('2026-11-22T12:00:00.000Z')
    const big = ['18446744073709551615', '9007199254740993', '9007199254740992']
    const sorted = sortVersions(big.map((v, i) => row(v, t + i, HOST_A, 'x-1')))
    assert.deepEqual(
      sorted.map((r) => r.version),
      ['9007199254740992', '9007199254740993', '18446744073709551615'],
    )
    assert.deepEqual(findVersionTies([...big, '9007199254740993'].map((v) => ({ version: v }))), ['9007199254740993'])
  })

  test('tied versions are ordered by updated_at; the later row is what resume returns', () => {
    const t = at('2026-11-22T12:00:00.000Z')
    const versions = [
      row(1, t, HOST_A, 'x-1'),
      row(2, t + 2000, HOST_B, 'x-1 x-2 x-3'),
      row(2, t + 1000, HOST_A, 'x-1 x-2'),
    ]
    assert.deepEqual(resumeAfter(versions), { value: 'x-1 x-2 x-3', fromVersion: '2' })
    const points = detectResumePoints(versions)
    assert.equal(points.length, 1)
    assert.deepEqual(points[0].reasons, ['new-process'])
    assert.equal(points[0].fromVersion, '2')
    assert.equal(points[0].firstWrite?.version, '2')
    assert.equal(points[0].firstWrite?.at, iso(t + 2000))
    const segs = segments(versions, points)
    assert.deepEqual(
      segs.map((s) => [s.sourceTrace, s.writes]),
      [
        [HOST_A, 2],
        [HOST_B, 1],
      ],
    )
  })
})

describe('run.begin edge cases', () => {
  const t0 = at('2026-11-22T12:00:00.000Z')

  test('a begin after the last write: a point with no first write, and an empty segment', () => {
    const versions = [1, 2, 3].map((k) => row(k, t0 + k * 10_000, HOST_A, batchState(k)))
    const points = detectResumePoints(versions, { begins: [{ attempt: 2, at: iso(t0 + 600_000) }] })
    assert.equal(points.length, 1)
    const [p] = points
    assert.deepEqual(p.reasons, ['run-begin'])
    assert.equal(p.firstWrite, null)
    assert.equal(p.toTrace, null)
    assert.equal(p.fromVersion, '3')
    assert.equal(p.unitsDone, 3)
    assert.equal(
      explainResume(points)[0],
      'Attempt 2 began at 2026-11-22 12:10:00 UTC; a resume then read v3 (3 items done); nothing written since — run.begin attempt 2',
    )
    const segs = segments(versions, points, { runStatus: 'running' })
    assert.deepEqual(
      segs.map((s) => [s.sourceTrace, s.writes, s.endedBy]),
      [
        [HOST_A, 3, 'crashed'],
        [null, 0, 'running'],
      ],
    )
    assert.ok(resumeFlowMermaid(segs, points).includes('  s1 -->|"run.begin attempt 2"| s2'))
  })

  test('a begin before any write (the first attempt never checkpointed) resumed from nothing', () => {
    const versions = [1, 2].map((k) => row(k, t0 + k * 10_000, HOST_B, batchState(k)))
    const points = detectResumePoints(versions, { begins: [{ attempt: 2, at: iso(t0) }] })
    assert.equal(points.length, 1)
    assert.equal(points[0].firstWrite?.version, '1')
    assert.equal(points[0].fromVersion, null)
    assert.equal(points[0].previous, null)
    assert.equal(points[0].fromTrace, null)
    assert.ok(explainResume(points)[0].includes('from nothing (no earlier version, so resume returned None)'))
  })

  test('two begins before the same first write merge into one point with the later attempt', () => {
    const versions = [row(1, t0, HOST_A, 'x-1'), row(2, t0 + 600_000, HOST_B, 'x-1 x-2')]
    const points = detectResumePoints(versions, {
      begins: [
        { attempt: 3, at: iso(t0 + 500_000) },
        { attempt: 2, at: iso(t0 + 300_000) },
      ],
    })
    assert.equal(points.length, 1)
    assert.equal(points[0].attempt, 3)
    assert.equal(points[0].at, iso(t0 + 500_000))
  })

  test('merged-away versions are flagged as a history gap', () => {
    const versions = [
      ...[1, 2, 3].map((k) => row(k, t0 + k * 10_000, HOST_A, batchState(k))),
      ...[250, 251].map((k) => row(k, t0 + 7_200_000 + k, HOST_B, batchState(k))),
    ]
    const [p] = detectResumePoints(versions)
    assert.equal(p.fromVersion, '3')
    assert.equal(p.historyGap, true)
    assert.match(explainResume([p])[0], /missing from the history/)
  })
})

describe('empty input', () => {
  test('no versions, no points, no segments', async () => {
    assert.deepEqual(detectResumePoints([]), [])
    assert.deepEqual(explainResume([]), [])
    assert.deepEqual(segments([], []), [])
    assert.deepEqual(resumeAfter([]), { value: null, fromVersion: null })
    assert.deepEqual(gapStats([]), { medianIntervalMs: 0, thresholdMs: 60_000 })
    const text = resumeFlowMermaid([], [])
    assert.equal(text, 'flowchart TD\n  empty(["no versions"])')
    await parseMermaid(text)
  })

  test('a begin with no versions at all', () => {
    const points = detectResumePoints([], {
      begins: { attempts: 2, startedAt: '2026-11-22T12:00:00Z', lastBeginAt: '2026-11-22T13:00:00Z' },
    })
    assert.equal(points.length, 1)
    assert.equal(points[0].fromVersion, null)
    assert.equal(points[0].previous, null)
  })
})

describe('mermaid escaping', () => {
  test('mermaidText leaves no quote, bracket, angle bracket or pipe', () => {
    const t = mermaidText('a"b[c]d<e>f(g){h}|i#j&k`l;m\\n%o\nnext')
    assert.doesNotMatch(t, /["[\]<>(){}|`\\%\n]/)
    assert.equal(t, 'a#quot;b#91;c#93;d#lt;e#gt;f#40;g#41;#123;h#125;#124;i#35;j#amp;k#96;l#59;m#92;n#37;o next')
    assert.equal(mermaidText('abcdefghij', 5), 'abcd…')
  })

  test('hostile source_trace and actor values stay inside their labels and parse', async () => {
    const t0 = at('2026-11-22T12:00:00.000Z')
    const evilTrace = 'evil"] --> x[<script>alert(1)</script>] %%{init}%% |x| #quot;'
    const versions = [
      row(1, t0, 'host-a', 'x-1'),
      row(2, t0 + 1_000_000, evilTrace, 'x-1 x-2'),
      row(3, t0 + 1_010_000, 'console"]', 'x-1', { actor: 'operator:"bob"}}<b>' }),
      tombstone(4, t0 + 1_020_000, evilTrace),
    ]
    const points = detectResumePoints(versions)
    const segs = segments(versions, points)
    const text = resumeFlowMermaid(segs, points)
    assert.doesNotMatch(text, /<script|<b>|%%/)
    for (const line of text.split('\n').slice(1)) {
      // Every line is a node `id<open>"label"<close>` or an edge `a --> b` / `a -->|"label"| b`, with no quote inside labels.
      assert.match(
        line,
        /^ {2}(s\d+(_tombstone)?(\["[^"]*"\]|\{\{"[^"]*"\}\}|\[\/"[^"]*"\\\]|\(\("[^"]*"\)\))|s\d+(_tombstone)? -->(\|"[^"|]*"\|)? s\d+(_tombstone)?)$/,
      )
    }
    await parseMermaid(text)
  })
})

describe('near limit', () => {
  test('isNearLimit counts code points against char_limit', () => {
    assert.equal(isNearLimit('x'.repeat(3686), 4096), false)
    assert.equal(isNearLimit('x'.repeat(3687), 4096), true)
    assert.equal(isNearLimit('ü'.repeat(3687), 4096), true)
    assert.equal(isNearLimit('😀'.repeat(2000), 4096), false, 'astral characters count once')
    assert.equal(isNearLimit('x'.repeat(900), 1024, 0.9), false)
    assert.equal(isNearLimit('x', 0), false)
  })

  test('a checkpoint near its limit: resume from a 4089-character state', () => {
    const ids = (n: number) => Array.from({ length: n }, (_, i) => `item-${String(i + 1).padStart(4, '0')}`).join(' ')
    const t0 = at('2026-11-22T12:00:00.000Z')
    const versions = [
      row(1, t0, HOST_A, ids(408)),
      row(2, t0 + 1000, HOST_A, ids(409)),
      row(3, t0 + 3_600_000, HOST_B, ids(410)),
    ]
    assert.equal(versions[1].content.length, 4089)
    assert.equal(isNearLimit(versions[1].content, 4096), true)
    const [p] = detectResumePoints(versions)
    assert.equal(p.fromVersion, '2')
    assert.equal(p.unitsDone, 409)
    assert.equal(p.firstWrite?.summary, 'added item-0410')
  })
})

describe('attempts no resume point stands for', () => {
  const note = (attempt: number, over: Partial<AttemptNote> = {}): AttemptNote => ({
    attempt,
    beganAt: null,
    wrote: null,
    elsewhere: null,
    unattributed: null,
    ...over,
  })
  const begin3 = resumePoint({
    at: '2026-01-01T03:00:00.000Z',
    fromVersion: '2',
    fromTrace: 'a',
    toTrace: 'b',
    unitsDone: 2,
    firstWrite: { version: '3', at: '2026-01-01T03:00:01.000Z', summary: 'added x' },
    previous: { version: '2', isDeleted: false },
  })
  test('counts an attempt that wrote nothing here, not one a point stands for, nor one that may be an unmatched process', () => {
    const notes = [
      note(1, { wrote: { from: '1', to: '2', writes: 2 } }),
      note(2),
      note(3, { wrote: { from: '3', to: '3', writes: 1 } }),
      note(4, { unattributed: { processes: 1, from: '4', to: '4' } }),
    ]
    assert.deepEqual(
      silentAttempts(notes, [begin3]).map((a) => a.attempt),
      [2],
    )
    assert.equal(
      silentAttemptText(notes[1]),
      'Attempt 2 (run.begin time not kept) wrote no checkpoint here, so no resume point of this block stands for it.',
    )
  })
  test('draws it dotted off the node before the next attempt, since when it ran is not known', () => {
    const segs: Segment[] = [
      {
        id: 's1',
        kind: 'process',
        sourceTrace: 'a',
        actor: 'agent',
        fromVersion: '1',
        toVersion: '2',
        writes: 2,
        startAt: '2026-01-01T01:00:00.000Z',
        endAt: '2026-01-01T01:01:00.000Z',
        startPoint: null,
        startReasons: [],
        endedBy: 'crashed',
        endStatus: null,
        unitsDone: 2,
        steps: [],
        endsWithTombstone: false,
        continuedUnder: null,
      },
      {
        id: 's2',
        kind: 'process',
        sourceTrace: 'b',
        actor: 'agent',
        fromVersion: '3',
        toVersion: '3',
        writes: 1,
        startAt: '2026-01-01T03:00:01.000Z',
        endAt: '2026-01-01T03:00:01.000Z',
        startPoint: 0,
        startReasons: ['run-begin'],
        endedBy: 'completed',
        endStatus: 'succeeded',
        unitsDone: 3,
        steps: [],
        endsWithTombstone: false,
        continuedUnder: null,
      },
    ]
    const text = resumeFlowMermaid(segs, [begin3], {
      attempts: [note(1), note(2), note(3, { wrote: { from: '3', to: '3', writes: 1 } })],
    })
    assert.ok(text.includes('  s1 -.->|"run.begin attempt 2"| attempt_2'), text)
    assert.ok(text.includes('attempt_2["attempt 2<br/>run.begin time not kept<br/>wrote no checkpoint here"]'), text)
    assert.ok(!resumeFlowMermaid(segs, [begin3]).includes('attempt_2'))
  })
})
