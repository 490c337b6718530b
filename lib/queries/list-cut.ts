import type { ListCut } from '../endpoints/parts'
export type { ListCut } from '../endpoints/parts'

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
