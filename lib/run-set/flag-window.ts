/**
 * How a flag filter is applied. `checked`: the rows of each window (narrowed by flagRowPrefilters)
 * are checked by key lookups in the triage tables, so a page costs in proportion to the rows read
 * to fill it, and the scan stops after FLAG_SCAN_BUDGET rows with what it found and where it got
 * to. `exhaustive`: the flagged runs are computed for the whole filter first (every match, at a
 * cost in proportion to the filter's runs: batches, which must see all of them).
 */
export type FlagScan = 'checked' | 'exhaustive'

/** A flag-filtered page reads at most this many list rows (then it ends early, with a cursor to go on). */
export const FLAG_SCAN_BUDGET = 6_000
/** The largest window of rows checked in one round of a flag-filtered scan. */
const FLAG_WINDOW_MAX = 2_000
/** The first window of a flag-filtered scan: flags are rarer than rows, so start wider than a page. */
export const FLAG_WINDOW_FIRST = 500

/**
 * The next window of a flag-checked scan: sized by the share of rows that carried the flags so far
 * (with a margin), so a scan that needs a few more rows does not check thousands; four times the
 * last one while none has matched.
 */
export function nextFlagWindow(last: number, missing: number, found: number, scanned: number): number {
  const grown = Math.min(last * 4, FLAG_WINDOW_MAX)
  if (found === 0 || scanned === 0) return grown
  const expected = Math.ceil((missing * scanned * 1.25) / found) + 16
  return Math.max(16, Math.min(expected, grown))
}
