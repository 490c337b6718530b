/**
 * Lists a run-scoped route caps (so one huge run cannot make a response unbounded). A query
 * asks for one row more than its cap; when that row comes back the list is cut, and the
 * answer names the list and its cap in `cuts` so the view can say so instead of implying
 * that is everything.
 */
export type ListCut = { list: string; limit: number }

/** The bound parameter value for a capped query: one more row than the cap. */
export const overCap = (limit: number) => limit + 1

export function keepCap<T>(rows: T[], limit: number, list: string, cuts: ListCut[]): T[] {
  if (rows.length <= limit) return rows
  cuts.push({ list, limit })
  return rows.slice(0, limit)
}

export const AUDIT_CAP = 1_000
export const BLOBS_CAP = 5_000
export const BLOB_REFERENCES_CAP = 20_000
export const TURNS_CAP = 20_000
export const MEMORIES_CAP = 5_000
export const SEARCHES_CAP = 5_000
