/**
 * Three-way merge of a block's content: `base` is the version an operator started from, `theirs`
 * the version written since (by another operator or the agent), `mine` the operator's edit.
 * Changes that do not overlap merge by themselves; overlapping ones come back as conflicts that
 * the caller resolves with `choices`. Pure functions: safe in the browser and on the server.
 */
import { compareIds, parseIdList, parseJsonContainer } from '@/lib/diff'
import { ABSENT, mergeValue } from './json'
import { mergeSequences } from './sequence'
import { choose, type ConflictSink, type MergeConflict, type MergeOptions, type MergeResult } from './types'

function result(kind: MergeResult['kind'], content: string, conflicts: MergeConflict[] = []): MergeResult {
  return { kind, content, conflicts, unresolved: conflicts.filter((c) => c.resolution === null).length }
}

function sink(options: MergeOptions): ConflictSink {
  return { choices: options.choices ?? {}, conflicts: [] }
}

/* ------------------------------------------------------------------ id lists */

function separatorOf(text: string): string {
  if (!text.includes(',')) return ' '
  return /, /.test(text) ? ', ' : ','
}

function isSorted(ids: string[], compare: (a: string, b: string) => number): boolean {
  return ids.every((id, i) => i === 0 || compare(ids[i - 1], id) <= 0)
}

const codeUnitOrder = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0)

/** Sets: an id is kept when neither side removed it, and added when either side added it. */
function mergeIdLists(base: string[], theirs: string[], mine: string[], theirsText: string): string {
  const b = new Set(base)
  const t = new Set(theirs)
  const m = new Set(mine)
  const kept = theirs.filter((id) => (b.has(id) ? m.has(id) : true))
  const added = mine.filter((id) => !b.has(id) && !t.has(id))
  let ids = [...new Set([...kept, ...added])]
  // Keep theirs' order: sorted as Python's sorted() sorts, naturally sorted, or as written.
  if (isSorted(theirs, codeUnitOrder)) ids = ids.sort(codeUnitOrder)
  else if (isSorted(theirs, compareIds)) ids = ids.sort(compareIds)
  return ids.join(separatorOf(theirsText.trim()))
}

/* ---------------------------------------------------------------------- JSON */

function indentOf(text: string): string | null {
  const t = text.trim()
  if (!t.includes('\n')) return null
  return /\n([ \t]+)\S/.exec(t)?.[1] ?? '  '
}

function mergeJson(
  base: unknown,
  theirs: unknown,
  mine: unknown,
  theirsText: string,
  options: MergeOptions,
): MergeResult {
  const s = sink(options)
  const merged = mergeValue('$', base, theirs, mine, s)
  const indent = indentOf(theirsText)
  const text = indent === null ? JSON.stringify(merged) : JSON.stringify(merged, null, indent)
  return result('json', text + (theirsText.endsWith('\n') ? '\n' : ''), s.conflicts)
}

/* ---------------------------------------------------------------------- text */

function mergeText(base: string, theirs: string, mine: string, options: MergeOptions): MergeResult {
  const s = sink(options)
  const out: string[] = []
  const chunks = mergeSequences(base.split('\n'), theirs.split('\n'), mine.split('\n'), {
    key: (l) => l,
    insertions: 'conflict',
  })
  for (const chunk of chunks) {
    if (chunk.kind === 'stable') {
      out.push(...chunk.items)
      continue
    }
    const { baseStart, baseEnd } = chunk
    const label =
      baseStart === baseEnd
        ? `after line ${baseStart}`
        : baseEnd - baseStart === 1
          ? `line ${baseEnd}`
          : `lines ${baseStart + 1}–${baseEnd}`
    const lines = (a: string[]) => a.join('\n')
    const conflict = {
      id: `lines:${baseStart}:${baseEnd}`,
      label,
      base: lines(chunk.base),
      theirs: lines(chunk.theirs),
      mine: lines(chunk.mine),
    }
    const chosen = choose(s, conflict, chunk.theirs, chunk.mine)
    if (options.markers && s.conflicts.at(-1)?.resolution === null) {
      out.push(
        `<<<<<<< ${options.markers.mine}`,
        ...chunk.mine,
        '=======',
        ...chunk.theirs,
        `>>>>>>> ${options.markers.theirs}`,
      )
    } else out.push(...chosen)
  }
  return result('text', out.join('\n'), s.conflicts)
}

/** Conflict markers left in a text (an unfinished merge by hand). */
export function hasConflictMarkers(text: string): boolean {
  return /^(<{7}|>{7}) /m.test(text)
}

/* ------------------------------------------------------------------- public */

const blank = (s: string) => s.trim() === ''

/** Merges `theirs` and `mine`, both derived from `base`; see the module comment. */
export function mergeContents(base: string, theirs: string, mine: string, options: MergeOptions = {}): MergeResult {
  const listT = parseIdList(theirs)
  const listM = parseIdList(mine)
  const listB = parseIdList(base)
  const jsonT = parseJsonContainer(theirs)
  const jsonM = parseJsonContainer(mine)
  const jsonB = parseJsonContainer(base)
  const kind = listT && listM ? 'ids' : jsonT && jsonM ? 'json' : 'text'

  if (theirs === mine || base === mine) return result(kind, theirs)
  if (base === theirs) return result(kind, mine)

  // A clear (or an emptied block) against an edit: nothing to merge piecewise.
  const cleared = !blank(base) && (blank(theirs) || blank(mine))
  if (cleared) {
    const s = sink(options)
    const show = (x: string) => (blank(x) ? null : x)
    const content = choose(
      s,
      { id: 'content', label: 'whole content', base: base, theirs: show(theirs), mine: show(mine) },
      theirs,
      mine,
    )
    return result('whole', content, s.conflicts)
  }
  if (listT && listM && (listB || blank(base))) return result('ids', mergeIdLists(listB ?? [], listT, listM, theirs))
  if (jsonT && jsonM && (jsonB || blank(base))) return mergeJson(jsonB ?? ABSENT, jsonT, jsonM, theirs, options)
  return mergeText(base, theirs, mine, options)
}
