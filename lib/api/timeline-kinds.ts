import { TIMELINE_KINDS, type TimelineKind } from '../endpoints/vocabulary'

export { TIMELINE_KINDS, type TimelineKind }

/**
 * Characters of each event's payload the timeline carries; the rest stays in the tab that owns it.
 * Working-memory states keep 2,000 (resume summaries do not depend on it: the versions a resume
 * point compares are read again whole when cut); turns, memories, searches and blobs 600: ten
 * thousand turns at 2,000 characters made a 6 MB answer.
 */
export const TIMELINE_STATE_CHARS = 2000
export const TIMELINE_DETAIL_CHARS = 600

const STATE_KINDS: ReadonlySet<TimelineKind> = new Set(['checkpoint', 'checkpoint.cleared', 'block', 'operator'])

/** How many characters of this kind's payload the timeline carries. */
export function detailLimit(kind: TimelineKind): number {
  return STATE_KINDS.has(kind) ? TIMELINE_STATE_CHARS : TIMELINE_DETAIL_CHARS
}
