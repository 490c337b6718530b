import { chTimeToIso } from '../tables/time'
import { encodeCursor, type RunsCursor } from '../api/cursor'
import type { CheckpointSummary, RunSummary, RunsPage } from '../endpoints/runs'
import { rowRunKey } from '../loom/identity'
import type { RunFlag } from '../triage/flags'
import { pickCheckpoint } from '../run-set/checkpoints'
import type { RunsFilter, RunsSource } from '../run-set/filter'
import type { FlagScan } from '../run-set/flag-window'
import type { ListRow } from '../run-set/list-row'
import { cursorOfKey } from '../run-set/order'
import { openRunSet } from '../run-set/run-set'

/** A run row's own fields (everything but its times, whose text differs by source) as the API names them. */
type RunRowFields = Pick<
  ListRow,
  | 'org'
  | 'namespace'
  | 'agent'
  | 'run_id'
  | 'user_id'
  | 'session_id'
  | 'goal'
  | 'status'
  | 'attempt'
  | 'duration_ms'
  | 'turns'
  | 'cost_usd'
>

export function runRowSummary(
  row: RunRowFields,
  times: { startedAt: string; completedAt: string | null },
  checkpoint: CheckpointSummary | null,
  flags: RunFlag[],
): RunSummary {
  return {
    org: row.org,
    namespace: row.namespace,
    agent: row.agent,
    runId: row.run_id,
    userId: row.user_id,
    sessionId: row.session_id,
    goal: row.goal,
    status: row.status,
    attempt: row.attempt,
    ...times,
    durationMs: row.duration_ms,
    turns: row.turns,
    costUsd: row.cost_usd,
    checkpoint,
    flags,
  }
}

export function toRunSummary(row: ListRow, checkpoint: CheckpointSummary | null, flags: RunFlag[] = []): RunSummary {
  const times = {
    startedAt: chTimeToIso(row.started_text),
    completedAt: row.completed_text === null ? null : chTimeToIso(row.completed_text),
  }
  return runRowSummary(row, times, checkpoint, flags)
}

export type ListRunsParams = {
  filter: RunsFilter
  /** Where the page starts: after the last run of the previous one. */
  cursor?: RunsCursor
  limit: number
  signal?: AbortSignal
  source?: RunsSource
  /** `false` leaves every run's flags empty (for callers that do not show them, e.g. batches). */
  flags?: boolean
  /** How a flag filter is applied (see FlagScan; batches need every match). */
  flagScan?: FlagScan
  /** Rows a checked flag scan reads at most (smaller in tests). */
  flagScanBudget?: number
}

/**
 * The flags of the runs on a page read with `flags: false`, by run key (runKeyText): the same
 * flags listRuns would have attached, read afterwards so the rows need not wait for them.
 */
export async function flagsOfPage(
  filter: RunsFilter,
  runs: RunSummary[],
  signal?: AbortSignal,
): Promise<Record<string, RunFlag[]>> {
  if (runs.length === 0) return {}
  const set = await openRunSet(filter, { signal })
  const rows = runs.map((r) => ({ org: r.org, namespace: r.namespace, agent: r.agent, run_id: r.runId }))
  const byRun = await set.flagsOf(rows, { known: filter.flag ?? [] })
  return Object.fromEntries(rows.map((r) => [rowRunKey(r), byRun.get(rowRunKey(r)) ?? []]))
}

/** One page of the runs list, newest first, with each run's checkpoint and flags. */
export async function listRuns({
  filter,
  cursor,
  limit,
  signal,
  source,
  flags,
  flagScan,
  flagScanBudget,
}: ListRunsParams): Promise<RunsPage> {
  const set = await openRunSet(filter, { source, signal })
  const { rows, scannedTo } = await set.page(cursor, limit, { flagScan, flagScanBudget })
  const page = rows.slice(0, limit)
  const checkpoints = await set.checkpoints(page)
  // Every listed run passed the flag filter: its flags need no second look.
  const flagsByRun =
    flags === false ? new Map<string, RunFlag[]>() : await set.flagsOf(page, { known: filter.flag ?? [] })
  const runs = page.map((r) => {
    const key = rowRunKey(r)
    return toRunSummary(r, pickCheckpoint(r, checkpoints.get(key)), flagsByRun.get(key))
  })
  const last = page[page.length - 1]
  if (rows.length <= limit && scannedTo) {
    // The search stopped early: go on from the last run it read, not the last one it kept.
    return { runs, nextCursor: encodeCursor(scannedTo), searchedTo: chTimeToIso(scannedTo.startedAt) }
  }
  return { runs, nextCursor: rows.length > limit && last ? encodeCursor(cursorOfKey(last)) : null }
}
