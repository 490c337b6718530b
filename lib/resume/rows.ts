/** Helpers over a block's rows: version order, times, who wrote. */
import { timeMs } from './time'
import type { VersionInput } from './types'

export const OPERATOR_PREFIX = 'operator:'

/** A gap before a write is long (a resume) when over max(GAP_FACTOR × the median interval, MIN_GAP_MS), by default. */
export const GAP_FACTOR = 8
export const MIN_GAP_MS = 60_000

/** A checkpoint at or above this share of its char_limit is near its limit. */
export const NEAR_LIMIT_RATIO = 0.9

export function isOperatorActor(actor: string): boolean {
  return actor.startsWith(OPERATOR_PREFIX)
}

/** A version string as a BigInt; -1 for anything that is not a decimal UInt64 (sorts first). */
export function versionKey(v: string): bigint {
  const t = v.trim()
  return /^\d+$/.test(t) ? BigInt(t) : -1n
}

/** Milliseconds of an ISO time, 0 when unreadable (so bad rows sort first instead of throwing). */
export function ms(iso: string): number {
  const t = timeMs(iso)
  return Number.isNaN(t) ? 0 : t
}

/** Rows ordered by version (as BigInt), then updated_at, then input order. Does not mutate the input. */
export function sortVersions<T extends Pick<VersionInput, 'version' | 'updatedAt'>>(versions: readonly T[]): T[] {
  return versions
    .map((row, i) => ({ row, i, v: versionKey(row.version), t: ms(row.updatedAt) }))
    .sort((a, b) => (a.v < b.v ? -1 : a.v > b.v ? 1 : a.t - b.t || a.i - b.i))
    .map((x) => x.row)
}

export function median(xs: number[]): number {
  if (xs.length === 0) return 0
  const s = [...xs].sort((a, b) => a - b)
  const mid = s.length >> 1
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2
}

/** Index of the last element before `before` that matches, or -1. */
export function findLast<T>(xs: readonly T[], before: number, pred: (x: T) => boolean): number {
  for (let j = before - 1; j >= 0; j--) if (pred(xs[j])) return j
  return -1
}
