/**
 * "The runs the list shows" for a filter, as one value: the list, the analytics, the change poll,
 * the flags and the batches all read the same set through it, from the run index when it is
 * installed or from the union of `loom.runs` and working memory otherwise.
 */
import type { RunsCursor } from '../api/cursor'
import { selectRows } from '../clickhouse/query'
import type { Sql } from '../clickhouse/sql'
import type { RunFlag } from '../triage/flags'
import { flaggedRunsCondition, flagsOfRuns } from './run-flags'
import { runIndexReady } from './run-index'
import { checkpointsOf, type CheckpointRow } from './checkpoints'
import { runRowConditions } from './conditions'
import { requireIndexForFlags, type RunsFilter, type RunsSource } from './filter'
import { indexRunsSql } from './index-runs'
import { listRowsFromIndex, type ScanOptions } from './index-scan'
import { listRowSchema, type ListRow, type RunKeyRow } from './list-row'
import { keyOfCursor } from './order'
import { unionPageSql, unionRunsSql } from './union'

export type RunSetBackend = 'index' | 'union'

export type RunSetPage = {
  /** Up to limit + 1 rows in list order (one more than the page tells there are more). */
  rows: ListRow[]
  /** Where a flag scan stopped early, when it did (the next page goes on from there). */
  scannedTo: RunsCursor | null
}

export type RunSet = {
  readonly filter: RunsFilter
  readonly backend: RunSetBackend
  /** Whether the run index (and so run flags) is installed, whichever backend reads the set. */
  readonly indexed: boolean
  /** Every run of the set as a subquery: org, namespace, agent, run_id, status, started_at. */
  runsSql(now: Date): Promise<Sql>
  /** The conditions a `loom.runs` row (read with FINAL) of the set passes, flags included. */
  runRowConditions(now: Date): Promise<Sql[]>
  /** One page of list rows after the cursor. */
  page(cursor: RunsCursor | undefined, limit: number, options?: ScanOptions): Promise<RunSetPage>
  /** The checkpoint blocks of the given runs, by run key. */
  checkpoints(rows: RunKeyRow[]): Promise<Map<string, CheckpointRow[]>>
  /** The flags of the given runs, by run key (empty without the index); `known` hold for all of them. */
  flagsOf(runs: RunKeyRow[], options?: { now?: Date; known?: readonly RunFlag[] }): Promise<Map<string, RunFlag[]>>
}

export async function openRunSet(
  filter: RunsFilter,
  options: { source?: RunsSource; signal?: AbortSignal } = {},
): Promise<RunSet> {
  const { source = 'auto', signal } = options
  const indexed = source === 'index' || (await runIndexReady(signal))
  const backend: RunSetBackend = source === 'union' || !indexed ? 'union' : 'index'
  requireIndexForFlags(filter, backend === 'index')
  return {
    filter,
    backend,
    indexed,
    runsSql: async (now) => (backend === 'index' ? indexRunsSql(filter, now) : unionRunsSql(filter)),
    runRowConditions: async (now) => [
      ...runRowConditions(filter),
      ...(filter.flag?.length ? [await flaggedRunsCondition(filter.flag, filter, now)] : []),
    ],
    page: async (cursor, limit, scan = {}) => {
      if (backend === 'index') return listRowsFromIndex(filter, cursor, limit + 1, signal, scan)
      const rows = await selectRows(unionPageSql(filter, cursor && keyOfCursor(cursor), limit), listRowSchema, {
        signal,
      })
      return { rows, scannedTo: null }
    },
    checkpoints: (rows) => checkpointsOf(rows, backend === 'index', signal),
    flagsOf: (runs, { now, known } = {}) => flagsOfRuns(runs, indexed, signal, now, known),
  }
}
