import type { DerivedFreshness } from '@/lib/api/types'
import { absoluteTime, duration } from '@/lib/format'

/** Derived data older than this is called out (the console keeps it within about a second). */
export const FRESHNESS_LIMIT_MS = 5_000

/** What to say about the derived data's age, or null when it is fresh. Pure, for tests. */
export function freshnessNote(d: DerivedFreshness | undefined): { tone: 'warning' | 'error'; text: string } | null {
  if (!d) return null
  if (d.error) {
    const asOf =
      d.lagMs !== null ? ` The list, flags, counts and charts are ${duration(d.lagMs)} behind the agents' writes.` : ''
    return {
      tone: 'error',
      text: `Deriving the runs list from new writes is failing (${d.error}); it is retried every few seconds.${asOf} A run's own page is exact.`,
    }
  }
  if (d.lagMs !== null && d.lagMs > FRESHNESS_LIMIT_MS) {
    const last = d.lastRunAt ? ` (last update ${absoluteTime(d.lastRunAt)})` : ''
    return {
      tone: 'warning',
      text: `The list, flags, counts and charts are ${duration(d.lagMs)} behind the agents' writes${last}. A run's own page is exact.`,
    }
  }
  return null
}
