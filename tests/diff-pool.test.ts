import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { describeDiff, diffContents, type TextDiff } from '../lib/diff'
import { detectResumePoints } from '../lib/resume/detect'
import type { VersionInput } from '../lib/resume/types'
import { detectResumePointsOffLoop, diffContentsOffLoop, OFFLOAD_MIN_CHARS } from '../lib/server/diff-pool'

/** 2,000 log lines, then the same with every eighth line rewritten: 250 lines replaced (500 edits), past the inline budget of 400. */
const before = Array.from({ length: 2000 }, (_, i) => `step ${i} fetched page ${i * 7}`).join('\n')
const after = before
  .split('\n')
  .map((l, i) => (i % 8 === 0 ? `${l} (retried)` : l))
  .join('\n')

const row = (version: string, content: string, sourceTrace: string, minute: number): VersionInput => ({
  version,
  content,
  sourceTrace,
  actor: 'crawler',
  isDeleted: false,
  updatedAt: new Date(Date.UTC(2026, 11, 1, 10, minute)).toISOString(),
})

describe('large diffs off the event loop', () => {
  test('a large change past the inline budget gets its line-by-line diff from the worker, and the event loop runs meanwhile', async () => {
    assert.ok(before.length + after.length >= OFFLOAD_MIN_CHARS)
    const inline = diffContents(before, after) as TextDiff
    assert.equal(inline.overBudget, true, 'the inline budget gives up on 250 replaced lines')
    let ticks = 0
    const timer = setInterval(() => ticks++, 1)
    const off = (await diffContentsOffLoop(before, after)) as TextDiff
    clearInterval(timer)
    assert.equal(off.kind, 'text')
    assert.equal(off.overBudget, undefined)
    assert.equal(off.addedLines, 250)
    assert.equal(off.removedLines, 250)
    assert.equal(describeDiff(off), '+250 −250 lines')
    // Word segments name the changed words of a replaced line.
    const replaced = off.parts.find((p) => p.type === 'added')
    assert.ok(replaced?.words?.[0].some((w) => w.changed && w.text.includes('retried')))
    assert.ok(ticks > 0, 'timers fired while the worker diffed')
  })

  test('two texts that share no line: past the worker budget too, the diff says so and shows both sides', async () => {
    const a = 'a\n'.repeat(8000)
    const b = 'b\n'.repeat(8000)
    const d = (await diffContentsOffLoop(a, b)) as TextDiff
    assert.equal(d.overBudget, true)
    assert.deepEqual(
      d.parts.map((p) => [p.type, p.lines.length]),
      [
        ['removed', 8000],
        ['added', 8000],
      ],
    )
    assert.match(describeDiff(d), /too different to compare line by line/)
  })

  test('small pairs, id lists and JSON stay inline and equal the plain diff', async () => {
    for (const [x, y] of [
      ['a\nb\n', 'a\nc\n'],
      ['item-1 item-2', 'item-1 item-2 item-3'],
      [
        JSON.stringify({ done: Array.from({ length: 3000 }, (_, i) => `item-${i}`) }),
        JSON.stringify({ done: Array.from({ length: 3001 }, (_, i) => `item-${i}`) }),
      ],
    ]) {
      assert.deepEqual(await diffContentsOffLoop(x, y), diffContents(x, y))
    }
  })

  test('resume points: the large step is summarized from the worker’s diff, everything else as inline', async () => {
    const versions = [
      row('1', 'start', 'host/1', 0),
      row('2', before, 'host/1', 1),
      row('3', after, 'host/2', 30),
      row('4', `${after}\nend`, 'host/2', 31),
    ]
    const plain = detectResumePoints(versions)
    const off = await detectResumePointsOffLoop(versions)
    assert.equal(off.length, plain.length)
    const resume = off.find((p) => p.firstWrite?.version === '3')
    assert.ok(resume, 'the new process resumed at v3')
    assert.equal(resume.firstWrite?.summary, '+250 −250 lines')
    assert.match(plain.find((p) => p.firstWrite?.version === '3')!.firstWrite!.summary, /too different/)
    // Apart from that summary, the points are the same.
    assert.deepEqual(
      off.map((p) => ({ ...p, firstWrite: p.firstWrite && { ...p.firstWrite, summary: '' } })),
      plain.map((p) => ({ ...p, firstWrite: p.firstWrite && { ...p.firstWrite, summary: '' } })),
    )
  })
})
