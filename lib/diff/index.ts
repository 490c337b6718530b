/**
 * Diffs between two versions of a block's content, with the kind chosen from the content:
 * - `set`: both sides are id lists (`" ".join(sorted(done))`, `a,b,c`, `a, b, c`);
 * - `json`: both sides are JSON objects or arrays (structural diff, arrays as sequences: see ./json);
 * - `text`: anything else (line diff, with word-level segments inside changed lines: see ./text).
 * Pure functions: no I/O, safe in the browser and on the server. `describeDiff(diffContents(a, b))`
 * is the one-line summary every view uses (versions table, editor, resume points).
 */
import { arrayParent, canonicalKey, diffJsonValues, type JsonChange, type JsonChangeType } from './json'
import { textDiff, textDiffOf, type LineChanges, type TextDiff } from './text'

export { diffJsonValues, canonicalKey, type JsonChange, type JsonChangeType } from './json'
export { DIFF_MAX_EDITS, DIFF_TIMEOUT_MS, lineDiffOptions, type LineChanges } from './text'
export { wordSegments, type TextDiff, type TextPart, type TextPartType, type WordSegment } from './text'

export type IdListSeparator = ' ' | ',' | ', '

export type SetDiff = {
  kind: 'set'
  /** The separator of the `after` side (of `before` when `after` is empty). */
  separator: IdListSeparator
  /** Ids in `after` but not in `before`, sorted (natural order: item-9 before item-10). */
  added: string[]
  /** Ids in `before` but not in `after`, sorted. */
  removed: string[]
  /** Ids on both sides. */
  kept: number
  /** Distinct ids on each side. */
  beforeCount: number
  afterCount: number
  /** `before === after` (byte for byte). */
  identical: boolean
}

export type JsonDiff = {
  kind: 'json'
  changes: JsonChange[]
  added: number
  removed: number
  changed: number
  moved: number
  identical: boolean
}

export type ContentDiff = SetDiff | JsonDiff | TextDiff

/* ------------------------------------------------------------------ id lists */

/** Characters an id may contain: letters, digits and a few punctuation marks ids use. */
const ID_TOKEN = /^[\p{L}\p{N}_.:/#@+=~$-]+$/u
/** A space-separated token must look like an id, not a word of prose: a digit, id punctuation, or an inner dot. */
const ID_LIKE = /[\p{N}_:/#@=~$-]|[^.]\.[^.]/u
const NUMBER = /^[+-]?\d+(\.\d+)?$/

type ParsedList = { ids: string[]; separator: IdListSeparator }

function parseList(text: string): ParsedList | null {
  if (/[\r\n\t\f\v]/.test(text)) return null
  const trimmed = text.trim()
  if (trimmed === '') return null
  if (trimmed.includes(',')) {
    const ids = trimmed.split(/ *, */)
    if (ids.length < 2 || ids.some((id) => id === '' || !ID_TOKEN.test(id))) return null
    return { ids, separator: /, /.test(trimmed) ? ', ' : ',' }
  }
  const ids = trimmed.split(/ +/)
  if (ids.some((id) => !ID_TOKEN.test(id) || !ID_LIKE.test(id))) return null
  // A lone number is a scalar (a counter, an offset), not a list of one id.
  if (ids.length === 1 && NUMBER.test(ids[0])) return null
  return { ids, separator: ' ' }
}

/**
 * The ids of an id-list state, in their written order, or null when `text` is not an id list.
 * An id list is one line of space- or comma-separated tokens; space-separated tokens must look
 * like ids (contain a digit, one of `- _ : / # @ = ~ $`, or a dot inside the token), so prose is not mistaken for a list.
 * Empty or blank text is not a list (null); `diffContents` treats it as an empty set.
 */
export function parseIdList(text: string): string[] | null {
  return parseList(text)?.ids ?? null
}

const collator = new Intl.Collator('en', { numeric: true })

/** Natural order, made total by falling back to code-unit order. */
export function compareIds(a: string, b: string): number {
  return collator.compare(a, b) || (a < b ? -1 : a > b ? 1 : 0)
}

function setDiff(before: ParsedList | null, after: ParsedList | null, identical: boolean): SetDiff {
  const b = new Set(before?.ids ?? [])
  const a = new Set(after?.ids ?? [])
  const added = [...a].filter((id) => !b.has(id)).sort(compareIds)
  const removed = [...b].filter((id) => !a.has(id)).sort(compareIds)
  return {
    kind: 'set',
    separator: after?.separator ?? before?.separator ?? ' ',
    added,
    removed,
    kept: a.size - added.length,
    beforeCount: b.size,
    afterCount: a.size,
    identical,
  }
}

/* ---------------------------------------------------------------------- JSON */

type JsonContainer = Record<string, unknown> | unknown[]

/** The parsed value when `text` is a JSON object or array; null otherwise. */
export function parseJsonContainer(text: string): JsonContainer | null {
  const t = text.trim()
  if (!(t.startsWith('{') || t.startsWith('['))) return null
  try {
    const v: unknown = JSON.parse(t)
    return typeof v === 'object' && v !== null ? (v as JsonContainer) : null
  } catch {
    return null
  }
}

/* ------------------------------------------------------------------- public */

/** Which diff `diffContents` gives for these two sides. */
export function diffKind(before: string, after: string): ContentDiff['kind'] {
  const listB = parseList(before)
  const listA = parseList(after)
  if ((listB && listA) || (listB && after.trim() === '') || (before.trim() === '' && listA)) return 'set'
  return parseJsonContainer(before) && parseJsonContainer(after) ? 'json' : 'text'
}

/**
 * Diffs two contents, choosing set, JSON or line diff from what both sides look like. `lineChanges`,
 * when given, are the two sides' line changes computed elsewhere (used only for a line diff;
 * `words: false` skips the word segments inside changed lines, for a summary).
 */
export function diffContents(
  before: string,
  after: string,
  lineChanges?: { changes: LineChanges; words?: boolean },
): ContentDiff {
  const identical = before === after
  const listB = parseList(before)
  const listA = parseList(after)
  const blankB = before.trim() === ''
  const blankA = after.trim() === ''
  if ((listB && listA) || (listB && blankA) || (blankB && listA)) return setDiff(listB, listA, identical)

  const jsonB = parseJsonContainer(before)
  const jsonA = parseJsonContainer(after)
  if (jsonB && jsonA) {
    const changes = diffJsonValues(jsonB, jsonA)
    const count = (t: JsonChangeType) => changes.filter((c) => c.type === t).length
    return {
      kind: 'json',
      changes,
      added: count('added'),
      removed: count('removed'),
      changed: count('changed'),
      moved: count('moved'),
      identical,
    }
  }
  return lineChanges
    ? textDiffOf(before, after, lineChanges.changes, { words: lineChanges.words })
    : textDiff(before, after)
}

function shortId(id: string, max = 40): string {
  return id.length > max ? `${id.slice(0, max - 1)}…` : id
}

function items(n: number): string {
  return `${n} item${n === 1 ? '' : 's'}`
}

function jsonChangePhrase(c: JsonChange): string {
  return c.type === 'moved' ? `moved ${c.from} → ${c.path}` : `${c.type} ${c.path}`
}

/** A short human summary: "added item-121", "added 3 items, removed 1", "changed $.cursor", "+2 −1 lines", "no change". */
export function describeDiff(d: ContentDiff): string {
  switch (d.kind) {
    case 'set': {
      const { added, removed } = d
      if (added.length === 0 && removed.length === 0)
        return d.identical ? 'no change' : `same ${items(d.afterCount)}, reformatted`
      if (added.length + removed.length <= 2) {
        const parts: string[] = []
        if (added.length) parts.push(`added ${added.map((id) => shortId(id)).join(', ')}`)
        if (removed.length) parts.push(`removed ${removed.map((id) => shortId(id)).join(', ')}`)
        return parts.join(', ')
      }
      if (added.length && removed.length) return `added ${items(added.length)}, removed ${removed.length}`
      return added.length ? `added ${items(added.length)}` : `removed ${items(removed.length)}`
    }
    case 'json': {
      const { changes } = d
      if (changes.length === 0) return d.identical ? 'no change' : 'formatting only'
      if (changes.length <= 2) return changes.map(jsonChangePhrase).join(', ')
      // Many elements added to (or removed from) one array: say so once.
      const parent = arrayParent(changes[0].path)
      const type = changes[0].type
      if (
        parent !== null &&
        (type === 'added' || type === 'removed') &&
        changes.every((c) => c.type === type && arrayParent(c.path) === parent)
      ) {
        return `${type} ${items(changes.length)} ${type === 'added' ? 'to' : 'from'} ${parent}`
      }
      const counts = (
        [
          ['changed', d.changed],
          ['added', d.added],
          ['removed', d.removed],
          ['moved', d.moved],
        ] as const
      )
        .filter(([, n]) => n > 0)
        .map(([t, n]) => `${n} ${t}`)
      return `${changes.length} changes: ${counts.join(', ')}`
    }
    case 'text':
      if (d.addedLines === 0 && d.removedLines === 0) return d.identical ? 'no change' : 'formatting only'
      if (d.overBudget)
        return `rewritten: ${d.removedLines} lines → ${d.addedLines} lines (too different to compare line by line)`
      return `+${d.addedLines} −${d.removedLines} lines`
  }
}

/** Array fields of a JSON state that count work done. */
export const UNIT_FIELDS = ['done', 'completed', 'items', 'processed'] as const

/**
 * How many units of work a state records as done: the number of ids of an id list, the length of
 * a JSON array, or the length of the first array field named done/completed/items/processed of a
 * JSON object. Null when the state says nothing countable (including empty content).
 */
export function unitsDone(content: string): number | null {
  const list = parseIdList(content)
  if (list) return new Set(list).size
  const json = parseJsonContainer(content)
  if (Array.isArray(json)) return json.length
  if (json) {
    for (const field of UNIT_FIELDS) {
      const v = json[field]
      if (Array.isArray(v)) return v.length
    }
  }
  return null
}

/** The units a state records as done, as comparable keys: id-list ids, or JSON array elements (canonical JSON). */
export function unitsOf(content: string): { kind: 'list' | 'json-array'; units: string[] } | null {
  const list = parseIdList(content)
  if (list) return { kind: 'list', units: [...new Set(list)] }
  const json = parseJsonContainer(content)
  const arr = Array.isArray(json) ? json : json ? UNIT_FIELDS.map((f) => json[f]).find(Array.isArray) : undefined
  if (!arr) return null
  return { kind: 'json-array', units: [...new Set(arr.map((v) => (typeof v === 'string' ? v : canonicalKey(v))))] }
}

/**
 * What going back from `current` to `target` makes the agent do again: the units the current
 * state holds that the target lacks (a clear: `target` null, every unit). Kind `none` when the two
 * do not both count units (an empty target counts as none done).
 */
export function unitsToRedo(
  current: string,
  target: string | null,
  sampleSize = 10,
): { kind: 'list' | 'json-array' | 'none'; redo: number | null; sample: string[] } {
  const then0 = target === null || target.trim() === '' ? null : unitsOf(target)
  // An empty side holds no unit, of whatever kind the other side counts.
  const now = current.trim() === '' ? (then0 ? { kind: then0.kind, units: [] } : null) : unitsOf(current)
  const then = then0 ?? (now && (target === null || target.trim() === '') ? { kind: now.kind, units: [] } : null)
  if (!now || !then || now.kind !== then.kind) return { kind: 'none', redo: null, sample: [] }
  const had = new Set(then.units)
  const redo = now.units.filter((u) => !had.has(u))
  return { kind: now.kind, redo: redo.length, sample: redo.slice(0, sampleSize) }
}
