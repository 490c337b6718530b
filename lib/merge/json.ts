/**
 * Three-way merge of parsed JSON values, per path: objects by key, arrays of objects that share a
 * stable key field (`id`, `key`, `name`, …) by that key, other arrays as sequences. A path both
 * sides changed differently is a conflict; when neither choice is made yet it holds theirs.
 */
import { mergeSequences } from './sequence'
import { choose, type ConflictSink } from './types'

/** A key that is not there (removed, or not added): distinct from JSON `null`. */
export const ABSENT: unique symbol = Symbol('absent')
export type Value = unknown

type Obj = Record<string, unknown>

const KEY_FIELDS = ['id', 'key', 'name', 'uuid', '_id'] as const
const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/

function isObj(v: unknown): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v)
}

/** JSON text with object keys sorted: equal for values JSON considers equal. */
export function canonical(v: unknown): string {
  if (v === ABSENT) return '\u0000absent'
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`
  if (isObj(v)) {
    const keys = Object.keys(v).sort()
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonical(v[k])}`).join(',')}}`
  }
  return JSON.stringify(v) ?? 'null'
}

function same(a: unknown, b: unknown): boolean {
  if (a === b) return true
  if (a === ABSENT || b === ABSENT) return false
  return canonical(a) === canonical(b)
}

function childPath(parent: string, key: string): string {
  return IDENTIFIER.test(key) ? `${parent}.${key}` : `${parent}[${JSON.stringify(key)}]`
}

function show(v: unknown): string | null {
  if (v === ABSENT) return null
  return typeof v === 'object' && v !== null ? JSON.stringify(v, null, 2) : JSON.stringify(v)
}

/** Own-property assignment that also works for a key named `__proto__`. */
function put(o: Obj, k: string, v: unknown) {
  Object.defineProperty(o, k, { value: v, enumerable: true, writable: true, configurable: true })
}

function get(o: unknown, k: string): unknown {
  return isObj(o) && Object.hasOwn(o, k) ? o[k] : ABSENT
}

function conflict(sink: ConflictSink, path: string, b: unknown, t: unknown, m: unknown): unknown {
  return choose(sink, { id: path, label: path, base: show(b), theirs: show(t), mine: show(m) }, t, m)
}

function mergeObjects(path: string, b: unknown, t: Obj, m: Obj, sink: ConflictSink): Obj {
  const out: Obj = {}
  const keys = [...Object.keys(t), ...Object.keys(m).filter((k) => !Object.hasOwn(t, k))]
  for (const k of keys) {
    const v = mergeValue(childPath(path, k), get(b, k), get(t, k), get(m, k), sink)
    if (v !== ABSENT) put(out, k, v)
  }
  return out
}

type KeyValue = string | number

/** A field every element of the three arrays carries, unique within each array. */
function stableKeyField(arrays: unknown[][]): string | null {
  if (arrays.every((a) => a.length === 0)) return null
  for (const field of KEY_FIELDS) {
    const fits = arrays.every((a) => {
      const seen = new Set<string>()
      for (const el of a) {
        const v = get(el, field)
        if (typeof v !== 'string' && typeof v !== 'number') return false
        const k = `${typeof v}:${v}`
        if (seen.has(k)) return false
        seen.add(k)
      }
      return true
    })
    if (fits) return field
  }
  return null
}

/**
 * Inserts the keys of `other` missing from `order` after the key that precedes them in `other`.
 * Where both sides added keys at the same place, theirs come first: `afterNew` skips past the
 * keys of `order` that are not in the base (theirs' additions when `order` is theirs).
 */
function weave(order: string[], other: string[], base: Set<string>, afterNew: boolean): string[] {
  const out = [...order]
  let prev: string | null = null
  for (const k of other) {
    if (!out.includes(k)) {
      let at = prev === null ? 0 : out.indexOf(prev) + 1
      while (afterNew && at < out.length && !base.has(out[at]) && !other.includes(out[at])) at++
      out.splice(at, 0, k)
    }
    prev = k
  }
  return out
}

function mergeKeyed(
  path: string,
  field: string,
  b: unknown[],
  t: unknown[],
  m: unknown[],
  sink: ConflictSink,
): unknown[] {
  const keyOf = (el: unknown) => {
    const v = get(el, field) as KeyValue
    return `${typeof v}:${v}`
  }
  const index = (a: unknown[]) => new Map(a.map((el) => [keyOf(el), el]))
  const [ib, it, im] = [index(b), index(t), index(m)]
  const kb = b.map(keyOf)
  const kt = t.map(keyOf)
  const km = m.map(keyOf)
  // Theirs' order, unless only mine reordered the elements they share with the base.
  const theirsKept = kt.filter((k) => ib.has(k))
  const baseOrder = kb.filter((k) => it.has(k))
  const order =
    theirsKept.join('\n') === baseOrder.join('\n')
      ? weave(km, kt, new Set(kb), false)
      : weave(kt, km, new Set(kb), true)
  const out: unknown[] = []
  for (const k of order) {
    const sample = (it.get(k) ?? im.get(k)) as Obj
    const label = `${path}[${field}=${JSON.stringify(sample[field])}]`
    const v = mergeValue(
      label,
      ib.has(k) ? ib.get(k) : ABSENT,
      it.has(k) ? it.get(k) : ABSENT,
      im.has(k) ? im.get(k) : ABSENT,
      sink,
    )
    if (v !== ABSENT) out.push(v)
  }
  return out
}

function mergeArrays(path: string, b: unknown[], t: unknown[], m: unknown[], sink: ConflictSink): unknown[] {
  const field = stableKeyField([b, t, m])
  if (field) return mergeKeyed(path, field, b, t, m, sink)
  const out: unknown[] = []
  for (const chunk of mergeSequences(b, t, m, { key: canonical, insertions: 'union' })) {
    if (chunk.kind === 'stable') {
      out.push(...chunk.items)
      continue
    }
    const { baseStart, baseEnd, base, theirs, mine } = chunk
    if (base.length > 0 && theirs.length === base.length && mine.length === base.length) {
      // Both sides changed the same elements in place: merge them element by element.
      base.forEach((el, i) => {
        const v = mergeValue(`${path}[${baseStart + i}]`, el, theirs[i], mine[i], sink)
        if (v !== ABSENT) out.push(v)
      })
      continue
    }
    const label = `${path}[${baseStart}:${baseEnd}]`
    const slice = (a: unknown[]) => JSON.stringify(a, null, 2)
    out.push(
      ...choose(sink, { id: label, label, base: slice(base), theirs: slice(theirs), mine: slice(mine) }, theirs, mine),
    )
  }
  return out
}

/** Merges one value both sides derived from `b` (any of them may be ABSENT). */
export function mergeValue(path: string, b: unknown, t: unknown, m: unknown, sink: ConflictSink): unknown {
  if (same(t, m)) return t
  if (same(b, t)) return m
  if (same(b, m)) return t
  if (isObj(t) && isObj(m) && (b === ABSENT || isObj(b))) return mergeObjects(path, b, t, m, sink)
  if (Array.isArray(t) && Array.isArray(m) && (b === ABSENT || Array.isArray(b)))
    return mergeArrays(path, b === ABSENT ? [] : (b as unknown[]), t, m, sink)
  return conflict(sink, path, b, t, m)
}
