/**
 * Three-way merge of sequences (lines, JSON array elements, keys): each side's edits against the
 * base come from the `diff` package; edits of the two sides that touch the same base elements are
 * grouped, and a group where both sides did different things is a conflict for the caller.
 */
import { diffArrays } from 'diff'

/** `base[start, end)` replaced by `side[from, to)`; an insertion has start === end. */
type Edit = { start: number; end: number; from: number; to: number; side: 'theirs' | 'mine' }

export type SequenceChunk<T> =
  | { kind: 'stable'; items: T[] }
  | { kind: 'conflict'; baseStart: number; baseEnd: number; base: T[]; theirs: T[]; mine: T[] }

export type SequenceOptions<T> = {
  /** Equal elements have equal keys. */
  key: (item: T) => string
  /**
   * Both sides inserted different elements at the same place: `union` keeps theirs then mine
   * (without mine's duplicates of theirs), `conflict` asks the operator.
   */
  insertions: 'union' | 'conflict'
}

/**
 * The work budget of each side's diff against the base: past it (sides that share little, or very
 * long ones) the side counts as one edit of the whole base, so both sides changing makes a single
 * conflict for the operator instead of a browser tab that hangs on the comparison.
 */
export const MERGE_MAX_EDITS = 2000
export const MERGE_TIMEOUT_MS = 200

function editsOf(base: string[], side: string[], name: Edit['side']): Edit[] {
  const changes = diffArrays(base, side, { maxEditLength: MERGE_MAX_EDITS, timeout: MERGE_TIMEOUT_MS })
  if (!changes) {
    const same = base.length === side.length && base.every((x, i) => x === side[i])
    return same ? [] : [{ start: 0, end: base.length, from: 0, to: side.length, side: name }]
  }
  const out: Edit[] = []
  let bi = 0
  let si = 0
  let cur: Edit | null = null
  for (const change of changes) {
    const n = change.count ?? change.value.length
    if (change.added) {
      cur ??= { start: bi, end: bi, from: si, to: si, side: name }
      cur.to += n
      si += n
    } else if (change.removed) {
      cur ??= { start: bi, end: bi, from: si, to: si, side: name }
      cur.end += n
      bi += n
    } else {
      if (cur) out.push(cur)
      cur = null
      bi += n
      si += n
    }
  }
  if (cur) out.push(cur)
  return out
}

type Cluster = { start: number; end: number; edits: Edit[] }

/** Edits touch the same base elements, or insert at the same place. */
function overlaps(c: Cluster, e: Edit): boolean {
  if (e.start < c.end && e.end > c.start) return true
  return e.start === e.end && c.start === c.end && e.start === c.start
}

function clusters(edits: Edit[]): Cluster[] {
  // Insertions before replacements that start at the same place: an insertion at p goes before base[p].
  const sorted = [...edits].sort((a, b) => a.start - b.start || a.end - a.start - (b.end - b.start))
  const out: Cluster[] = []
  for (const e of sorted) {
    const last = out.at(-1)
    if (last && overlaps(last, e)) {
      last.edits.push(e)
      last.end = Math.max(last.end, e.end)
    } else out.push({ start: e.start, end: e.end, edits: [e] })
  }
  return out
}

/** One side's version of `base[c.start, c.end)`: the base with that side's edits applied. */
function region<T>(c: Cluster, side: Edit['side'], base: T[], items: T[]): T[] {
  const out: T[] = []
  let pos = c.start
  for (const e of c.edits) {
    if (e.side !== side) continue
    out.push(...base.slice(pos, e.start), ...items.slice(e.from, e.to))
    pos = e.end
  }
  out.push(...base.slice(pos, c.end))
  return out
}

function sameKeys<T>(a: T[], b: T[], key: (item: T) => string): boolean {
  return a.length === b.length && a.every((x, i) => key(x) === key(b[i]))
}

/** Merges `theirs` and `mine`, both derived from `base`, into stable runs and conflicts. */
export function mergeSequences<T>(base: T[], theirs: T[], mine: T[], options: SequenceOptions<T>): SequenceChunk<T>[] {
  const { key } = options
  const kb = base.map(key)
  const all = [...editsOf(kb, theirs.map(key), 'theirs'), ...editsOf(kb, mine.map(key), 'mine')]
  const chunks: SequenceChunk<T>[] = []
  const stable = (items: T[]) => {
    if (items.length === 0) return
    const last = chunks.at(-1)
    if (last?.kind === 'stable') last.items.push(...items)
    else chunks.push({ kind: 'stable', items: [...items] })
  }
  let pos = 0
  for (const c of clusters(all)) {
    stable(base.slice(pos, c.start))
    pos = c.end
    const t = region(c, 'theirs', base, theirs)
    const m = region(c, 'mine', base, mine)
    const byTheirs = c.edits.some((e) => e.side === 'theirs')
    const byMine = c.edits.some((e) => e.side === 'mine')
    if (!byMine || sameKeys(t, m, key)) stable(t)
    else if (!byTheirs) stable(m)
    else if (c.start === c.end && options.insertions === 'union') {
      const seen = new Set(t.map(key))
      stable([...t, ...m.filter((x) => !seen.has(key(x)))])
    } else
      chunks.push({
        kind: 'conflict',
        baseStart: c.start,
        baseEnd: c.end,
        base: base.slice(c.start, c.end),
        theirs: t,
        mine: m,
      })
  }
  stable(base.slice(pos))
  return chunks
}
