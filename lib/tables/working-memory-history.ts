import { DATETIME, engine, type TableDeclaration } from './declaration'
import { workingMemoryTable } from './working-memory'

export const HISTORY_RETENTION_DAYS = 90

/** Rows expire this many days after the write they copy; the retention is chosen at install time. */
export function historyTtl(retentionDays: number): string {
  return `toDateTime(updated_at) + INTERVAL ${Math.trunc(retentionDays)} DAY`
}

/**
 * Append-only copy of every working-memory insert, complete from the moment it is installed. It
 * copies working memory's columns as written, so their insert-time defaults do not apply here.
 */
export const workingMemoryHistoryTable = {
  key: 'history',
  group: 'history',
  purpose: 'Append-only copy of every working-memory insert (opt-in), complete from the moment it was installed.',
  whenMissing: 'info',
  disables:
    'Checkpoint tab › Versions shows only the versions merges have not collapsed yet (best effort), not the complete captured history',
  columns: [
    ...workingMemoryTable.columns.map(({ name, type }) => ({ name, type })),
    { name: 'captured_at', type: DATETIME, default: 'now64(3)' },
  ],
  engine: engine('MergeTree'),
  sortingKey: [...workingMemoryTable.sortingKey, 'version'],
  skipIndexes: [],
  ttl: historyTtl(HISTORY_RETENTION_DAYS),
} satisfies TableDeclaration

/** The materialized view that feeds the history table from working memory. */
export const workingMemoryHistoryView = {
  key: 'historyView',
  group: 'history',
  whenMissing: 'info',
  disables: 'History capture: new checkpoint versions are not copied into the history table',
} as const
