/**
 * The runs list read from the run index (see lib/loom/ddl.ts, runIndexDdl) instead of grouping
 * every working-memory row on each request. Same contract as the union backend: list order,
 * keyset cursors, checkpoint-only runs with status "unknown", started at their first
 * working-memory write, under the identity of their newest block.
 *
 * One table, `run_index`, sorted in list order and read in reverse order with a LIMIT, so a page
 * costs a few granules wherever the cursor points, whatever the size of working memory:
 * - kind 0: one row per `loom.runs` version, until merges collapse them; candidates are picked by
 *   the row's own values, then judged on the run's latest version;
 * - kind 1: the first working-memory write of a run that had no run row then. It stands for a
 *   checkpoint-only run while `run_index_orphans` (looked up for the candidates of the page only)
 *   says it is still the run's first write and no run row came later; that table also gives the
 *   identity of the run's newest block. Each one that reaches a page is checked against
 *   `loom.runs` too (a run row written at the same moment as the first checkpoint).
 */
import { z } from 'zod'
import type { RunsCursor } from '../api/cursor'
import { selectRows } from '../clickhouse/query'
import { and, sql, trusted, type Sql } from '../clickhouse/sql'
import { rowRunKey } from '../loom/identity'
import { tableNames, source } from '../loom/tables'
import {
  FLAG_QUERY_SETTINGS,
  flaggedRunsCondition,
  flagRowCheck,
  flagRowPrefilters,
  flagsToLookUp,
  runsCarrying,
  sparsePrefilter,
} from './run-flags'
import { indexNames } from './run-index'
import { identityConditions, inRunKeys, statusCondition, timeConditions } from './conditions'
import type { RunsFilter } from './filter'
import { FLAG_SCAN_BUDGET, FLAG_WINDOW_FIRST, nextFlagWindow, type FlagScan } from './flag-window'
import { candidatesSql, candidateSchema, LATEST, toListRow } from './index-candidates'
import type { ListRow } from './list-row'
import { cursorOfKey, cursorStarted, keyOfCursor, keysetAfter, type ListKey } from './order'
import { qMatchesRun } from './q'

/** How a page is read from the index: the flag scan (see FlagScan) and its row budget. */
export type ScanOptions = { flagScan?: FlagScan; flagScanBudget?: number }

type Found = { row: ListRow; firstWrite: boolean }

/** Conditions on each index row's own values (the window's pre-filter). */
async function rowConditions(filter: RunsFilter, checkFlags: boolean, now: Date): Promise<Sql[]> {
  const c = [...identityConditions(filter), ...timeConditions(filter)]
  if (filter.status === 'unknown') c.push(trusted('kind = 1'))
  else if (filter.status !== undefined) c.push(statusCondition(filter.status))
  if (filter.q !== undefined) c.push(qMatchesRun(filter.q))
  if (filter.flag?.length) {
    if (checkFlags) c.push(...(await flagRowPrefilters(filter.flag, now)))
    else c.push(await flaggedRunsCondition(filter.flag, filter, now))
  }
  return c
}

/** Checks on a run's latest version: the row pre-filter may have picked an older one. */
function latestChecks(filter: RunsFilter, checkFlags: boolean): Sql {
  const checks: Sql[] = []
  if (filter.status !== undefined) checks.push(statusCondition(filter.status, LATEST.status))
  if (filter.q !== undefined) checks.push(qMatchesRun(filter.q, LATEST.goal))
  const rowCheck = checkFlags
    ? flagRowCheck(filter.flag!, { status: LATEST.status.sql, attempt: LATEST.attempt.sql, kind: LATEST.kind.sql })
    : null
  if (rowCheck) checks.push(rowCheck)
  return and(checks)
}

/**
 * Up to `want` rows after the cursor, in list order. Each round reads a window of the index in
 * reverse sorting-key order (pre-filtered on each row's own values), collapses unmerged versions to
 * the latest, and looks up the checkpoint-only candidates of the window in the orphans table: a
 * kind-1 row counts when it is its run's first write and no run row came later. The next round
 * starts after the window's last row.
 * A flag filter is checked on each window's rows (see FlagScan). `excluded`: runs whose
 * first-write rows turned out to have a run row (found in loom.runs).
 */
async function scanIndex(
  filter: RunsFilter,
  cursor: ListKey | undefined,
  want: number,
  excluded: Set<string>,
  signal: AbortSignal | undefined,
  { flagScan = 'checked', flagScanBudget = FLAG_SCAN_BUDGET }: ScanOptions,
): Promise<{ found: Found[]; scannedTo: ListKey | null }> {
  const ix = indexNames()
  const checkFlags = !!filter.flag?.length && flagScan === 'checked'
  const now = new Date()
  const inner = await rowConditions(filter, checkFlags, now)
  const passes = latestChecks(filter, checkFlags)
  const lookUp = checkFlags ? flagsToLookUp(filter.flag!) : []
  const settings = filter.flag?.length && !checkFlags ? FLAG_QUERY_SETTINGS : undefined

  const out: Found[] = []
  let after = cursor
  // Unmerged versions of a run take several rows of a window: ask for more than the page.
  let window = checkFlags && !sparsePrefilter(filter.flag!) ? FLAG_WINDOW_FIRST : 2 * want + 16
  let scanned = 0
  for (let round = 0; round < 64 && out.length < want; round++) {
    if (checkFlags && scanned >= flagScanBudget) return { found: out, scannedTo: after ?? null }
    const conds = after ? [...inner, sql`started_at <= ${cursorStarted(after)}`, keysetAfter(after)] : inner
    // A flag-checked page reads at most its budget of rows, the last window included.
    const size = checkFlags ? Math.min(window, flagScanBudget - scanned) : window
    const rows = await selectRows(candidatesSql(ix, conds, passes, size), candidateSchema, { signal, settings })
    if (rows.length === 0) break
    scanned += rows.length
    const listed = rows.map((r) => ({ r, row: toListRow(r) }))
    const flagged = lookUp.length
      ? await runsCarrying(
          listed.flatMap(({ r, row }) => (row && r.passes === 1 ? [row] : [])),
          lookUp,
          signal,
          now,
        )
      : null
    for (const { r, row } of listed) {
      if (
        row &&
        r.passes === 1 &&
        !(r.latest_kind === 1 && excluded.has(rowRunKey(row))) &&
        (!flagged || flagged.has(rowRunKey(row)))
      ) {
        out.push({ row, firstWrite: r.latest_kind === 1 })
        if (out.length >= want) break
      }
    }
    const last = rows[rows.length - 1]
    after = {
      started_text: last.started_text,
      org: last.org,
      namespace: last.namespace,
      agent: last.agent,
      run_id: last.run_id,
    }
    // Every row of the window is one of these runs' index rows: fewer of those than the window
    // asked for means the index has no more rows passing the pre-filter (no empty round to learn it).
    if (rows.reduce((n, r) => n + r.versions, 0) < size) break
    window = checkFlags ? nextFlagWindow(window, want - out.length, out.length, scanned) : Math.min(window * 4, 100_000)
  }
  return { found: out, scannedTo: null }
}

const keySchema = z.object({ org: z.string(), namespace: z.string(), agent: z.string(), run_id: z.string() })

/** Runs among `rows` that have a `loom.runs` row after all (key lookups). */
function withRunRow(rows: ListRow[], signal?: AbortSignal) {
  return selectRows(
    sql`SELECT org, namespace, agent, run_id FROM ${trusted(source(tableNames().runs))}
       WHERE ${inRunKeys('keys', rows)}
       GROUP BY org, namespace, agent, run_id`,
    keySchema,
    { signal },
  )
}

/** Up to `want` rows of the runs list after the cursor (the caller asks for limit + 1). */
export async function listRowsFromIndex(
  filter: RunsFilter,
  cursor: RunsCursor | undefined,
  want: number,
  signal: AbortSignal | undefined,
  options: ScanOptions = {},
): Promise<{ rows: ListRow[]; scannedTo: RunsCursor | null }> {
  const after = cursor ? keyOfCursor(cursor) : undefined
  const excluded = new Set<string>()
  for (let attempt = 0; ; attempt++) {
    const { found, scannedTo } = await scanIndex(filter, after, want, excluded, signal, options)
    const result = { rows: found.map((f) => f.row), scannedTo: scannedTo && cursorOfKey(scannedTo) }
    const shown = found.filter((f) => f.firstWrite).map((f) => f.row)
    if (shown.length === 0 || attempt >= 4) return result
    // A run row written at the same moment as the run's first checkpoint can leave a stale
    // checkpoint-only entry behind: confirm the few shown here against loom.runs.
    const stale = await withRunRow(shown, signal)
    if (stale.length === 0) return result
    for (const s of stale) excluded.add(rowRunKey(s))
  }
}
