import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { detectResumePoints, gapStats, normalizeBegins } from './detect'
import { explainResume } from './explain'
import { resumeFlowMermaid } from './mermaid'
import {
  at,
  batchState,
  CONSOLE,
  HOST_A,
  HOST_B,
  iso,
  parseMermaid,
  resumeAfter,
  resumeFlow,
  row,
  tombstone,
} from './resume-test-rows'
import { sortVersions } from './rows'
import { segments } from './segments'
import type { VersionInput } from './types'

const A_START = at('2026-11-22T08:00:05.000Z')
const B_START = at('2026-11-22T10:10:04.500Z')
const STEP = 5_000

/** The seed's batch run: host-a checkpoints v1..v120 every 5 s and dies; 2 h later host-b resumes, finishes at v300 and clears (v301). */
function seedBatch(): VersionInput[] {
  const rows: VersionInput[] = []
  for (let k = 1; k <= 120; k++) rows.push(row(k, A_START + (k - 1) * STEP, HOST_A, batchState(k)))
  for (let k = 121; k <= 300; k++) rows.push(row(k, B_START + (k - 121) * STEP, HOST_B, batchState(k)))
  rows.push(tombstone(301, B_START + 180 * STEP, HOST_B))
  return rows
}

const SEED_BEGINS = [
  { attempt: 1, at: '2026-11-22T08:00:00.000Z' },
  { attempt: 2, at: '2026-11-22T10:10:04.000Z' },
]

/** Deterministic shuffle (the input may come in any order). */
function shuffled<T>(xs: T[]): T[] {
  const out = [...xs]
  let s = 7
  for (let i = out.length - 1; i > 0; i--) {
    s = (s * 1103515245 + 12345) % 2147483648
    const j = s % (i + 1)
    ;[out[i], out[j]] = [out[j], out[i]]
  }
  return out
}

describe('the seed batch run', () => {
  test('one resume point at v121: new process after a 2 h gap, from v120 with 120 items done', () => {
    const points = detectResumePoints(seedBatch())
    assert.equal(points.length, 1)
    const [p] = points
    assert.deepEqual(p.reasons, ['new-process', 'long-gap'])
    assert.equal(p.at, iso(B_START))
    assert.equal(p.fromVersion, '120')
    assert.equal(p.fromTrace, HOST_A)
    assert.equal(p.toTrace, HOST_B)
    assert.equal(p.unitsDone, 120)
    assert.deepEqual(p.firstWrite, { version: '121', at: iso(B_START), summary: 'added item-121' })
    assert.deepEqual(p.previous, { version: '120', isDeleted: false })
    assert.equal(p.gapMs, B_START - (A_START + 119 * STEP))
    assert.equal(p.attempt, null)
    assert.equal(p.historyGap, false)
  })

  test('with run.begin rows the reasons merge into the same point, timed at the begin', () => {
    const points = detectResumePoints(seedBatch(), { begins: SEED_BEGINS })
    assert.equal(points.length, 1, 'attempt 1 is not a resume; attempt 2 merges with the trace change')
    const [p] = points
    assert.deepEqual(p.reasons, ['run-begin', 'new-process', 'long-gap'])
    assert.equal(p.at, '2026-11-22T10:10:04.000Z')
    assert.equal(p.attempt, 2)
    assert.equal(p.fromVersion, '120')
    assert.equal(p.firstWrite?.version, '121')
    const [sentence] = explainResume(points)
    assert.ok(
      sentence.startsWith(
        'Process host-b/pid-5150 resumed at 2026-11-22 10:10:04 UTC from v120 (120 items done); its first write v121 added item-121',
      ),
      sentence,
    )
    assert.match(sentence, /run\.begin attempt 2/)
    assert.match(sentence, /was host-a\/pid-4242/)
    assert.match(sentence, /2h 0m without a write/)
  })

  test('the run row summary {attempts, startedAt, lastBeginAt} works like the begin list', () => {
    const fromSummary = detectResumePoints(seedBatch(), {
      begins: { attempts: 2, startedAt: SEED_BEGINS[0].at, lastBeginAt: SEED_BEGINS[1].at },
    })
    assert.deepEqual(fromSummary, detectResumePoints(seedBatch(), { begins: SEED_BEGINS }))
    assert.deepEqual(normalizeBegins({ attempts: 1, startedAt: SEED_BEGINS[0].at, lastBeginAt: SEED_BEGINS[0].at }), [])
  })

  test('input order does not matter', () => {
    assert.deepEqual(
      detectResumePoints(shuffled(seedBatch()), { begins: SEED_BEGINS }),
      detectResumePoints(seedBatch(), { begins: SEED_BEGINS }),
    )
    assert.deepEqual(
      sortVersions(shuffled(seedBatch())).map((r) => r.version),
      seedBatch().map((r) => r.version),
    )
  })

  test('segments: host-a crashed, host-b completed and cleared', () => {
    const versions = seedBatch()
    const points = detectResumePoints(versions, { begins: SEED_BEGINS })
    const segs = segments(versions, points, { runStatus: 'succeeded' })
    assert.deepEqual(
      segs.map((s) => [
        s.id,
        s.kind,
        s.sourceTrace,
        s.fromVersion,
        s.toVersion,
        s.writes,
        s.endedBy,
        s.endsWithTombstone,
        s.unitsDone,
      ]),
      [
        ['s1', 'process', HOST_A, '1', '120', 120, 'crashed', false, 120],
        ['s2', 'process', HOST_B, '121', '301', 181, 'completed', true, 300],
      ],
    )
    assert.deepEqual(segs[1].startReasons, ['run-begin', 'new-process', 'long-gap'])
    assert.equal(segs[1].startPoint, 0)
    assert.equal(segs[0].startAt, iso(A_START))
    assert.equal(segs[1].endAt, iso(B_START + 180 * STEP))
    // Without the run's status, a tombstone written by the agent ends its segment as "cleared".
    assert.equal(segments(versions, points)[1].endedBy, 'cleared')
  })

  test('resume now returns None (the last version is a tombstone)', () => {
    assert.deepEqual(resumeAfter(seedBatch()), { value: null, fromVersion: null })
    assert.deepEqual(resumeAfter(seedBatch().slice(0, 150)), { value: batchState(150), fromVersion: '150' })
  })

  test('mermaid flow: two process nodes, a tombstone node, a labelled resume edge; mermaid parses it', async () => {
    const versions = seedBatch()
    const points = detectResumePoints(versions, { begins: SEED_BEGINS })
    const text = resumeFlow(versions, points)
    const lines = text.split('\n')
    assert.equal(lines[0], 'flowchart TD')
    assert.ok(
      lines.some((l) =>
        /^ {2}s1\["host-a\/pid-4242<br\/>v1–v120 · 120 writes<br\/>120 items done<br\/>.*ended: crashed, a later process resumed"\]$/.test(
          l,
        ),
      ),
      text,
    )
    assert.ok(
      lines.some((l) => /^ {2}s2\[".*ended: run succeeded"\]$/.test(l)),
      text,
    )
    assert.ok(lines.includes('  s2_tombstone(("tombstone v301"))'), text)
    assert.ok(lines.includes('  s2 --> s2_tombstone'), text)
    assert.ok(lines.includes('  s1 -->|"run.begin attempt 2 · new process · long gap"| s2'), text)
    await parseMermaid(text)
  })
})

describe('long gaps', () => {
  /** One process writing every 10 s, with one pause of `pauseMs` before v6. */
  function paused(pauseMs: number): VersionInput[] {
    const t0 = at('2026-11-22T09:00:00.000Z')
    const rows: VersionInput[] = []
    let t = t0
    for (let k = 1; k <= 10; k++) {
      t += k === 6 ? pauseMs : 10_000
      rows.push(row(k, t, HOST_A, batchState(k)))
    }
    return rows
  }

  test('a long gap without a trace change is a resume point of its own', () => {
    const points = detectResumePoints(paused(3_600_000))
    assert.equal(points.length, 1)
    assert.deepEqual(points[0].reasons, ['long-gap'])
    assert.equal(points[0].fromVersion, '5')
    assert.equal(points[0].fromTrace, HOST_A)
    assert.equal(points[0].toTrace, HOST_A)
    assert.equal(points[0].unitsDone, 5)
    assert.equal(points[0].firstWrite?.summary, 'added item-006')
    assert.equal(points[0].gapMs, 3_600_000)
    assert.match(
      explainResume(points)[0],
      /^Process host-a\/pid-4242 resumed at 2026-11-22 10:00:50 UTC from v5 \(5 items done\); .* — 1h 0m without a write \(the last: v5 by batch-indexer\)$/,
    )
    const segs = segments(paused(3_600_000), points)
    assert.deepEqual(
      segs.map((s) => [s.sourceTrace, s.fromVersion, s.toVersion, s.endedBy]),
      [
        [HOST_A, '1', '5', 'crashed'],
        // Nothing after it and no run status: how it ended is not known.
        [HOST_A, '6', '10', 'unknown'],
      ],
    )
  })

  test('threshold = max(median interval × gapFactor, minGapMs), exclusive', () => {
    assert.deepEqual(gapStats(paused(80_000)), { medianIntervalMs: 10_000, thresholdMs: 80_000 })
    assert.deepEqual(detectResumePoints(paused(80_000)), [], 'exactly 8 × median is not long')
    assert.equal(detectResumePoints(paused(80_001)).length, 1)
    assert.deepEqual(detectResumePoints(paused(80_001), { gapFactor: 20 }), [], 'gapFactor raises the threshold')
    assert.deepEqual(detectResumePoints(paused(100_000), { minGapMs: 120_000 }), [], 'minGapMs raises the threshold')
    assert.equal(detectResumePoints(paused(30_000), { gapFactor: 2, minGapMs: 0 }).length, 1)
  })

  test('minGapMs applies when the run checkpoints fast', () => {
    const t0 = at('2026-11-22T09:00:00.000Z')
    const rows = [1, 2, 3, 4].map((k) => row(k, t0 + k * 100, HOST_A, batchState(k)))
    rows.push(row(5, t0 + 400 + 59_000, HOST_A, batchState(5)))
    assert.equal(gapStats(rows).thresholdMs, 60_000)
    assert.deepEqual(detectResumePoints(rows), [])
  })

  test('a silent last segment of a running run is stalled once the gap is long (no later process: not a crash)', () => {
    const versions = paused(10_000)
    const last = at(versions[versions.length - 1].updatedAt)
    assert.equal(segments(versions, [], { runStatus: 'running', now: last + 30_000 })[0].endedBy, 'running')
    assert.equal(segments(versions, [], { runStatus: 'running', now: last + 3_600_000 })[0].endedBy, 'stalled')
    const failed = segments(versions, [], { runStatus: 'failed', now: last + 3_600_000 })
    assert.deepEqual([failed[0].endedBy, failed[0].endStatus], ['completed', 'failed'])
    assert.match(resumeFlowMermaid(failed, []), /ended: run failed/)
  })
})

describe('JSON states', () => {
  const t0 = at('2026-11-22T12:00:00.000Z')
  function state(n: number): string {
    return JSON.stringify({ cursor: `page-${n}`, done: Array.from({ length: n }, (_, i) => `doc-${i + 1}`) })
  }
  const versions = [
    ...[1, 2, 3, 4].map((k) => row(k, t0 + k * 30_000, HOST_A, state(k))),
    ...[5, 6].map((k) => row(k, t0 + k * 30_000 + 600_000, HOST_B, state(k))),
  ]

  test('units from the done array; first write summarized structurally', () => {
    const points = detectResumePoints(versions)
    assert.equal(points.length, 1)
    const [p] = points
    assert.deepEqual(p.reasons, ['new-process', 'long-gap'])
    assert.equal(p.fromVersion, '4')
    assert.equal(p.unitsDone, 4)
    assert.equal(p.firstWrite?.summary, 'changed $.cursor, added $.done[4]')
    assert.ok(
      explainResume(points)[0].includes('from v4 (4 items done); its first write v5 changed $.cursor, added $.done[4]'),
    )
  })
})

describe('operator writes', () => {
  const t0 = at('2026-11-22T12:00:00.000Z')
  const cursor = (n: number) => JSON.stringify({ cursor: n, done: [] })

  test('an edit is its own point; the process after it is compared with the last agent write', () => {
    const versions = [
      ...[1, 2, 3, 4, 5].map((k) => row(k, t0 + k * 10_000, HOST_A, cursor(k))),
      row(6, t0 + 3_600_000, CONSOLE, cursor(3), { actor: 'operator:alice' }),
      row(7, t0 + 3_700_000, HOST_B, cursor(4)),
    ]
    const points = detectResumePoints(versions)
    assert.deepEqual(
      points.map((p) => p.reasons),
      [['operator-edit'], ['new-process', 'long-gap']],
    )
    const [edit, resume] = points
    assert.equal(edit.fromVersion, '5')
    assert.equal(edit.actor, 'operator:alice')
    assert.equal(edit.fromTrace, HOST_A)
    assert.equal(edit.toTrace, CONSOLE)
    assert.deepEqual(edit.firstWrite, { version: '6', at: iso(t0 + 3_600_000), summary: 'changed $.cursor' })
    assert.equal(resume.fromVersion, '6', 'the resume read the operator’s version')
    assert.equal(resume.fromTrace, HOST_A, 'not the console trace')
    // A gap counts every write: the resume came 100 s after the operator's v6, not an hour after v5.
    assert.equal(resume.gapMs, 100_000)
    assert.deepEqual(resume.gapFrom, { version: '6', actor: 'operator:alice', at: iso(t0 + 3_600_000) })
    const sentences = explainResume(points)
    assert.equal(sentences[0], 'operator:alice edited the block at 2026-11-22 13:00:00 UTC: v5 → v6 (changed $.cursor)')
    assert.ok(
      sentences[1].startsWith('Process host-b/pid-5150 resumed at 2026-11-22 13:01:40 UTC from v6 (0 items done);'),
      sentences[1],
    )

    const segs = segments(versions, points, { runStatus: 'running' })
    assert.deepEqual(
      segs.map((s) => [s.kind, s.fromVersion, s.toVersion, s.endedBy, s.startReasons.join('+')]),
      [
        ['process', '1', '5', 'crashed', ''],
        ['operator', '6', '6', 'operator', 'operator-edit'],
        ['process', '7', '7', 'running', 'new-process+long-gap'],
      ],
    )
    const text = resumeFlowMermaid(segs, points)
    assert.ok(/^ {2}s2\{\{"operator:alice<br\/>edited: v6<br\/>.*"\}\}$/m.test(text), text)
    assert.ok(text.includes('  s1 -->|"operator edit"| s2'), text)
  })

  test('the same process continuing after an edit is not a new process', () => {
    const versions = [
      ...[1, 2, 3].map((k) => row(k, t0 + k * 10_000, HOST_A, cursor(k))),
      row(4, t0 + 35_000, CONSOLE, cursor(9), { actor: 'operator:alice' }),
      row(5, t0 + 40_000, HOST_A, cursor(4)),
    ]
    const points = detectResumePoints(versions)
    assert.deepEqual(
      points.map((p) => [p.reasons, p.firstWrite?.version]),
      [[['operator-edit'], '4']],
    )
    const segs = segments(versions, points)
    assert.deepEqual(
      segs.map((s) => [s.kind, s.fromVersion, s.toVersion, s.endedBy]),
      [
        ['process', '1', '3', 'operator'],
        ['operator', '4', '4', 'operator'],
        ['process', '5', '5', 'unknown'],
      ],
    )
    assert.match(resumeFlowMermaid(segs, points), /s1\[".*went on after an operator action"\]/)
    assert.ok(resumeFlowMermaid(segs, points).includes('  s2 -->|"continues"| s3'))
  })

  test('a clear as the last version: tombstone point, resume returns None, clear node shape', async () => {
    const versions = [
      ...[1, 2, 3].map((k) => row(k, t0 + k * 10_000, HOST_A, batchState(k))),
      tombstone(4, t0 + 7_200_000, CONSOLE, 'operator:bob'),
    ]
    const points = detectResumePoints(versions)
    assert.equal(points.length, 1)
    const [clear] = points
    assert.deepEqual(clear.reasons, ['operator-clear'])
    assert.equal(clear.fromVersion, '3')
    assert.equal(clear.unitsDone, 3)
    assert.equal(clear.firstWrite?.summary, 'cleared the block (tombstone; removed 3 items)')
    assert.equal(
      explainResume(points)[0],
      'operator:bob cleared the block at 2026-11-22 14:00:00 UTC with tombstone v4 (was v3, 3 items done); resume returns None after it',
    )
    assert.deepEqual(resumeAfter(versions), { value: null, fromVersion: null })
    const segs = segments(versions, points, { runStatus: 'failed' })
    assert.deepEqual(
      segs.map((s) => [s.kind, s.endedBy, s.endsWithTombstone]),
      [
        ['process', 'completed', false],
        ['operator', 'cleared', true],
      ],
    )
    const text = resumeFlowMermaid(segs, points, { direction: 'LR' })
    assert.ok(text.startsWith('flowchart LR\n'))
    assert.ok(/^ {2}s2\[\/"operator:bob<br\/>cleared: tombstone v4<br\/>.*"\\\]$/m.test(text), text)
    await parseMermaid(text)
  })

  test('a process after a tombstone resumed from nothing', () => {
    const versions = [
      row(1, t0, HOST_A, batchState(1)),
      tombstone(2, t0 + 10_000, CONSOLE, 'operator:bob'),
      row(3, t0 + 20_000, HOST_B, batchState(1)),
    ]
    const points = detectResumePoints(versions)
    const resume = points[1]
    assert.deepEqual(resume.reasons, ['new-process'])
    assert.equal(resume.fromVersion, null)
    assert.deepEqual(resume.previous, { version: '2', isDeleted: true })
    assert.equal(resume.unitsDone, null)
    assert.equal(resume.firstWrite?.summary, 'added item-001')
    assert.ok(explainResume(points)[1].includes('from nothing (v2 was a tombstone, so resume returned None)'))
  })
})
