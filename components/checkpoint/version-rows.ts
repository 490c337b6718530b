import type { Block, BlockDetail } from '@/lib/api/types'
import { describeDiff, diffContents } from '@/lib/diff'
import { sortVersions } from '@/lib/resume/rows'

export type VersionSource = 'history' | 'physical' | 'both'

/** One version as the table shows it: a history row, a physical row, or both at once. */
export type VersionEntry = {
  /** Unique within the block: the version, or `version~k` for the k-th row of a tied version (oldest is 1). */
  id: string
  block: Block
  source: VersionSource
  /** The physical part that still holds the row (physical rows only). */
  part: string | null
  isFinal: boolean
  /** What changed against the row before it, in one line. */
  change: string
}

function rowKey(b: Block): string {
  return JSON.stringify([b.version, b.updatedAt, b.actor, b.sourceTrace, b.isDeleted, b.content])
}

function changeSummary(prev: Block | null, cur: Block): string {
  if (cur.isDeleted) return prev && !prev.isDeleted ? 'cleared (tombstone)' : 'tombstone'
  if (prev && !prev.isDeleted) return describeDiff(diffContents(prev.content, cur.content))
  // Written from nothing: an id list says what it starts with; other content just starts.
  const fresh = diffContents('', cur.content)
  const what = fresh.kind === 'set' ? describeDiff(fresh) : null
  const start = prev ? 'written after a tombstone' : 'first version'
  return what ? `${start}: ${what}` : start
}

/** A restore's change line: what it put back first, then what that changed. */
function withRestore(restored: string | null | undefined, change: string): string {
  if (restored === undefined) return change
  const what = restored ? `restore of v${restored}` : 'restore of an earlier version'
  return `${what}; ${change.replace(/^written after a tombstone: /, 'after a tombstone: ').replace(/^written after a tombstone$/, 'after a tombstone')}`
}

/**
 * The block's versions newest first. With the history table installed, history rows are
 * matched with the physical rows still unmerged (same version, time, writer and content),
 * so each version appears once with where it was found.
 */
export function versionEntries(detail: BlockDetail): VersionEntry[] {
  const physical = new Map<string, { part: string; isFinal: boolean }[]>()
  for (const v of detail.versions) {
    const k = rowKey(v)
    physical.set(k, [...(physical.get(k) ?? []), { part: v.part, isFinal: v.isFinal }])
  }
  type Draft = Omit<VersionEntry, 'id' | 'change'>
  const drafts: Draft[] = []
  if (detail.history) {
    for (const h of detail.history) {
      const match = physical.get(rowKey(h))?.shift()
      drafts.push({
        block: h,
        source: match ? 'both' : 'history',
        part: match?.part ?? null,
        isFinal: match?.isFinal ?? false,
      })
    }
    // Physical rows written before the history was installed.
    for (const v of detail.versions) {
      const left = physical.get(rowKey(v))
      if (left && left.length) {
        const p = left.shift()!
        drafts.push({ block: v, source: 'physical', part: p.part, isFinal: p.isFinal })
      }
    }
  } else {
    for (const v of detail.versions) drafts.push({ block: v, source: 'physical', part: v.part, isFinal: v.isFinal })
  }

  // An operator's restore names the version it put back (the resume account matched it by content).
  const restores = new Map<string, string | null>()
  for (const p of detail.resume.points) {
    if (p.reasons.includes('operator-restore') && p.firstWrite) restores.set(p.firstWrite.version, p.restoredFrom)
  }
  const ascending = sortVersions(drafts.map((d) => ({ ...d, version: d.block.version, updatedAt: d.block.updatedAt })))
  const perVersion = new Map<string, number>()
  for (const d of ascending) perVersion.set(d.version, (perVersion.get(d.version) ?? 0) + 1)
  const seen = new Map<string, number>()
  const out: VersionEntry[] = ascending.map((d, i) => {
    const n = (seen.get(d.version) ?? 0) + 1
    seen.set(d.version, n)
    const tied = (perVersion.get(d.version) ?? 1) > 1
    return {
      id: tied ? `${d.version}~${n}` : d.version,
      block: d.block,
      source: d.source,
      part: d.part,
      isFinal: d.isFinal,
      change: withRestore(restores.get(d.version), changeSummary(i > 0 ? ascending[i - 1].block : null, d.block)),
    }
  })
  return out.reverse()
}

/** Default comparison: `b` the newest version (or the one asked for), `a` the version before it. */
export function defaultPair(entries: VersionEntry[], b?: string | null): { a: string | null; b: string | null } {
  if (entries.length === 0) return { a: null, b: null }
  const i = b
    ? Math.max(
        0,
        entries.findIndex((e) => e.id === b),
      )
    : 0
  return { a: entries[i + 1]?.id ?? null, b: entries[i].id }
}

export function sourceLabel(s: VersionSource): string {
  return s
}

export function sourceTitle(s: VersionSource): string {
  if (s === 'both') return 'In the captured history and still a physical row (not merged away yet)'
  if (s === 'history') return 'Only in the captured history: ClickHouse merged the physical row away'
  return 'A physical row that the history does not hold (written before it was installed, or history not installed)'
}
