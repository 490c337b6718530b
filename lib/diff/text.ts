/**
 * Line diff of two texts, with a word-level diff inside each run of changed lines: a removed
 * run followed by an added run is compared word by word (`diffWordsWithSpace`), so a line that
 * changed one word shows that word, not the whole line.
 */
import { diffLines, diffWordsWithSpace, type ChangeObject } from 'diff'

/** The line changes `diffLines` gives; undefined when its budget ran out. */
export type LineChanges = ChangeObject<string>[] | undefined

export type TextPartType = 'added' | 'removed' | 'same'

/** A piece of one line: `changed` marks the words that differ from the other side. */
export type WordSegment = { text: string; changed: boolean }

export type TextPart = {
  type: TextPartType
  lines: string[]
  /** For a removed run followed by an added run (and that added run): each line's segments, aligned with `lines`. */
  words?: WordSegment[][]
}

export type TextDiff = {
  kind: 'text'
  parts: TextPart[]
  addedLines: number
  removedLines: number
  identical: boolean
  /**
   * The two texts differ past the diff's work budget: `parts` holds both sides whole (every old line
   * removed, every new line added) instead of a line-by-line comparison.
   */
  overBudget?: boolean
}

/** Word diffs stop past this many characters on the two sides of a run together (costly, and unreadable). */
const WORD_DIFF_MAX_CHARS = 20_000

/**
 * The work budget of one diff: it gives up past this many line (or word) edits, or after this
 * many milliseconds, whichever comes first. Two checkpoints that share nothing cost the budget,
 * not the square of their length, and no diff holds the server for long.
 */
export const DIFF_MAX_EDITS = 400
export const DIFF_TIMEOUT_MS = 50

function toLines(value: string): string[] {
  const lines = value.split('\n')
  if (value.endsWith('\n')) lines.pop()
  return lines.map((l) => (l.endsWith('\r') ? l.slice(0, -1) : l))
}

/** Splits a side's segments into lines at each newline. */
function segmentLines(segments: WordSegment[]): WordSegment[][] {
  const lines: WordSegment[][] = [[]]
  for (const seg of segments) {
    const pieces = seg.text.split('\n')
    pieces.forEach((text, i) => {
      if (i > 0) lines.push([])
      if (text !== '') lines[lines.length - 1].push({ text, changed: seg.changed })
    })
  }
  return lines
}

/** Word segments of a replaced run: [removed side, added side], or null when there is nothing to align. */
export function wordSegments(removed: string[], added: string[]): [WordSegment[][], WordSegment[][]] | null {
  const before = removed.join('\n')
  const after = added.join('\n')
  if (before.length + after.length > WORD_DIFF_MAX_CHARS) return null
  const changes = diffWordsWithSpace(before, after, { maxEditLength: DIFF_MAX_EDITS, timeout: DIFF_TIMEOUT_MS })
  if (!changes) return null
  const left: WordSegment[] = []
  const right: WordSegment[] = []
  let common = 0
  for (const c of changes) {
    if (!c.added) left.push({ text: c.value, changed: c.removed })
    if (!c.removed) right.push({ text: c.value, changed: c.added })
    if (!c.added && !c.removed && c.value.trim() !== '') common += c.value.length
  }
  // Nothing in common but whitespace: the lines were rewritten; highlighting every word says nothing.
  if (common === 0) return null
  const l = segmentLines(left)
  const r = segmentLines(right)
  if (l.length !== removed.length || r.length !== added.length) return null
  return [l, r]
}

/** The options every line diff of two checkpoints uses, with the budget given. */
export function lineDiffOptions(maxEditLength: number, timeout: number) {
  return { ignoreNewlineAtEof: true, maxEditLength, timeout } as const
}

export function textDiff(before: string, after: string): TextDiff {
  return textDiffOf(before, after, diffLines(before, after, lineDiffOptions(DIFF_MAX_EDITS, DIFF_TIMEOUT_MS)))
}

/** The text diff from line changes computed elsewhere (e.g. off the event loop, with a larger budget). */
export function textDiffOf(
  before: string,
  after: string,
  changes: LineChanges,
  opts: { words?: boolean } = {},
): TextDiff {
  if (!changes) {
    // Past the budget: say so, and show both sides whole.
    const removed = toLines(before)
    const added = toLines(after)
    const parts: TextPart[] = [
      ...(removed.length && before !== '' ? [{ type: 'removed' as const, lines: removed }] : []),
      ...(added.length && after !== '' ? [{ type: 'added' as const, lines: added }] : []),
    ]
    return {
      kind: 'text',
      parts,
      addedLines: after === '' ? 0 : added.length,
      removedLines: before === '' ? 0 : removed.length,
      identical: false,
      overBudget: true,
    }
  }
  const parts: TextPart[] = changes.map((c) => ({
    type: c.added ? 'added' : c.removed ? 'removed' : 'same',
    lines: toLines(c.value),
  }))
  let addedLines = 0
  let removedLines = 0
  parts.forEach((p, i) => {
    if (p.type === 'added') addedLines += p.lines.length
    else if (p.type === 'removed') removedLines += p.lines.length
    const next = parts[i + 1]
    if (opts.words !== false && p.type === 'removed' && next?.type === 'added') {
      const words = wordSegments(p.lines, next.lines)
      if (words) [p.words, next.words] = words
    }
  })
  return { kind: 'text', parts, addedLines, removedLines, identical: before === after }
}
