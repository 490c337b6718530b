/**
 * Structural diff of two parsed JSON values. Objects are compared key by key; arrays as
 * sequences (the `diff` package's Myers diff over canonical element keys), so inserting one id
 * into a 300-id array is one insert, and an element that only changed place is one move.
 */
import { diffArrays } from 'diff'

export type JsonChangeType = 'added' | 'removed' | 'changed' | 'moved'

export type JsonChange = {
  /** `$` for the root, `$.a.b[2]`, `$["key with spaces"]`. Added, changed and moved elements: their index in `after`; removed ones: in `before`. */
  path: string
  type: JsonChangeType
  before?: unknown
  after?: unknown
  /** A moved element's path in `before`. */
  from?: string
}

/** Past this many element edits an array falls back to an index-by-index comparison (keeps huge rewrites cheap). */
const MAX_ARRAY_EDITS = 4000

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v)
}

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/

function childPath(parent: string, key: string): string {
  return IDENTIFIER.test(key) ? `${parent}.${key}` : `${parent}[${JSON.stringify(key)}]`
}

/** A key equal for equal JSON values whatever their object key order. */
export function canonicalKey(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonicalKey).join(',')}]`
  if (isPlainObject(v)) {
    const keys = Object.keys(v).sort()
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalKey(v[k])}`).join(',')}}`
  }
  return JSON.stringify(v) ?? 'undefined'
}

type Slot = { index: number; value: unknown; key: string; paired: boolean }
type Hunk = { removed: Slot[]; added: Slot[] }

/** Edit hunks between two arrays: runs of removed and added elements between common ones. */
function arrayHunks(before: unknown[], after: unknown[]): Hunk[] | null {
  const bKeys = before.map(canonicalKey)
  const aKeys = after.map(canonicalKey)
  const changes = diffArrays(bKeys, aKeys, { maxEditLength: MAX_ARRAY_EDITS })
  if (!changes) return null
  const hunks: Hunk[] = []
  let open: Hunk | null = null
  let bi = 0
  let ai = 0
  for (const c of changes) {
    const n = c.value.length
    if (!c.added && !c.removed) {
      open = null
      bi += n
      ai += n
      continue
    }
    if (!open) hunks.push((open = { removed: [], added: [] }))
    for (let k = 0; k < n; k++) {
      if (c.removed) open.removed.push({ index: bi, value: before[bi], key: bKeys[bi++], paired: false })
      else open.added.push({ index: ai, value: after[ai], key: aKeys[ai++], paired: false })
    }
  }
  return hunks
}

function walkArray(path: string, before: unknown[], after: unknown[], out: JsonChange[]): void {
  const hunks = arrayHunks(before, after)
  if (!hunks) {
    walkByIndex(path, before, after, out)
    return
  }
  const at = (i: number) => `${path}[${i}]`
  // Moves: an element removed in one place and added, equal, in another.
  const removedByKey = new Map<string, Slot[]>()
  for (const h of hunks) for (const s of h.removed) removedByKey.set(s.key, [...(removedByKey.get(s.key) ?? []), s])
  const movedFrom = new Map<Slot, Slot>()
  for (const h of hunks) {
    for (const s of h.added) {
      const from = removedByKey.get(s.key)?.find((r) => !r.paired)
      if (!from) continue
      from.paired = s.paired = true
      movedFrom.set(s, from)
    }
  }
  // Within a hunk, what was replaced in place is a change of that element (walked into).
  for (const h of hunks) {
    const removed = h.removed.filter((s) => !s.paired)
    const added = h.added.filter((s) => !s.paired)
    const pairs = Math.min(removed.length, added.length)
    for (let k = 0; k < pairs; k++) walk(at(added[k].index), removed[k].value, added[k].value, out)
    for (const s of removed.slice(pairs)) out.push({ path: at(s.index), type: 'removed', before: s.value })
    for (const s of h.added) {
      const from = movedFrom.get(s)
      if (from) out.push({ path: at(s.index), type: 'moved', from: at(from.index), after: s.value })
    }
    for (const s of added.slice(pairs)) out.push({ path: at(s.index), type: 'added', after: s.value })
  }
}

function walkByIndex(path: string, before: unknown[], after: unknown[], out: JsonChange[]): void {
  const n = Math.max(before.length, after.length)
  for (let i = 0; i < n; i++) {
    const p = `${path}[${i}]`
    if (i >= after.length) out.push({ path: p, type: 'removed', before: before[i] })
    else if (i >= before.length) out.push({ path: p, type: 'added', after: after[i] })
    else walk(p, before[i], after[i], out)
  }
}

function walk(path: string, before: unknown, after: unknown, out: JsonChange[]): void {
  if (Array.isArray(before) && Array.isArray(after)) {
    walkArray(path, before, after, out)
    return
  }
  if (isPlainObject(before) && isPlainObject(after)) {
    for (const key of Object.keys(before)) {
      const p = childPath(path, key)
      if (!Object.hasOwn(after, key)) out.push({ path: p, type: 'removed', before: before[key] })
      else walk(p, before[key], after[key], out)
    }
    for (const key of Object.keys(after)) {
      if (!Object.hasOwn(before, key)) out.push({ path: childPath(path, key), type: 'added', after: after[key] })
    }
    return
  }
  const bothScalar = typeof before !== 'object' || before === null ? typeof after !== 'object' || after === null : false
  if (bothScalar && before === after) return
  out.push({ path, type: 'changed', before, after })
}

/** Structural diff of two parsed JSON values (arrays diffed as sequences). */
export function diffJsonValues(before: unknown, after: unknown): JsonChange[] {
  const out: JsonChange[] = []
  walk('$', before, after, out)
  return out
}

/** `$.done` for `$.done[4]`; null when the path is not an array element. */
export function arrayParent(path: string): string | null {
  const m = /^(.*)\[\d+\]$/.exec(path)
  return m ? m[1] : null
}
