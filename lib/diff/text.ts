/**
 * Line diff of two texts, with a word-level diff inside each run of changed lines: a removed
 * run followed by an added run is compared word by word (`diffWordsWithSpace`), so a line that
 * changed one word shows that word, not the whole line.
 */
import { diffLines, diffWordsWithSpace } from 'diff'

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
}

/** Word diffs stop past this many characters on the two sides of a run together (costly, and unreadable). */
const WORD_DIFF_MAX_CHARS = 20_000

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
  const changes = diffWordsWithSpace(before, after)
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

export function textDiff(before: string, after: string): TextDiff {
  const parts: TextPart[] = diffLines(before, after, { ignoreNewlineAtEof: true }).map((c) => ({
    type: c.added ? 'added' : c.removed ? 'removed' : 'same',
    lines: toLines(c.value),
  }))
  let addedLines = 0
  let removedLines = 0
  parts.forEach((p, i) => {
    if (p.type === 'added') addedLines += p.lines.length
    else if (p.type === 'removed') removedLines += p.lines.length
    const next = parts[i + 1]
    if (p.type === 'removed' && next?.type === 'added') {
      const words = wordSegments(p.lines, next.lines)
      if (words) [p.words, next.words] = words
    }
  })
  return { kind: 'text', parts, addedLines, removedLines, identical: before === after }
}
