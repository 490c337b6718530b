import { TupleParam } from '@clickhouse/client'
import { z } from 'zod'
import { queryRows, type QueryParams } from '../clickhouse/query'
import { chTimeToIso } from '../clickhouse/time'
import { encodeCursor, type RunsCursor } from '../api/cursor'
import type { CheckpointSummary, RunSummary, RunsPage } from '../api/types'
import { versionString } from '../loom/identity'
import type { RunFlag } from '../triage/flags'
import { tableNames, source } from '../loom/tables'
import { checkpointRowsFromIndex, listRowsFromIndex, runIndexReady, type FlagScan } from './run-index'
import { filterParams, identityConditions, Q_GOAL_OR_ID, Q_ID, requireIndexForFlags } from './run-filter-sql'
import { flagsOfRuns, runKey } from './run-flags'
import { rowRunKey } from '../loom/identity'

export type RunsFilter = {
  org?: string
  namespace?: string
  agent?: string
  status?: string
  q?: string
  from?: Date
  to?: Date
  /** Runs that carry every one of these flags (lib/triage/flags.ts). */
  flag?: RunFlag[]
}

const listRowSchema = z.object({
  org: z.string(),
  namespace: z.string(),
  agent: z.string(),
  run_id: z.string(),
  user_id: z.string(),
  session_id: z.string(),
  goal: z.string(),
  status: z.string(),
  attempt: z.coerce.number(),
  started_text: z.string(),
  completed_text: z.string().nullable(),
  duration_ms: z.coerce.number().nullable(),
  turns: z.coerce.number(),
  cost_usd: z.coerce.number(),
})
type ListRow = z.infer<typeof listRowSchema>

const checkpointRowSchema = z.object({
  org: z.string(),
  namespace: z.string(),
  agent: z.string(),
  run_id: z.string(),
  user_id: z.string(),
  session_id: z.string(),
  version: versionString,
  updated_at: z.string().transform(chTimeToIso),
  chars: z.coerce.number(),
  char_limit: z.coerce.number(),
  is_deleted: z.coerce.number(),
})

function where(conditions: string[]) {
  return conditions.length ? `WHERE ${conditions.join(' AND ')}` : ''
}

const ORDER = 'started_at DESC, org DESC, namespace DESC, agent DESC, run_id DESC'
const KEYSET =
  "(started_at, org, namespace, agent, run_id) < ({c_started:DateTime64(3, 'UTC')}, {c_org:String}, {c_namespace:String}, {c_agent:String}, {c_run_id:String})"

/** SQL for one page of the union of `loom.runs` and checkpoint-only runs, newest first. */
export function buildRunsListQuery(filter: RunsFilter, cursor: RunsCursor | undefined, limit: number) {
  const t = tableNames()
  const params: QueryParams = { ...filterParams(filter), limit: limit + 1 }

  const ident = identityConditions(filter)
  const runCond = [...ident]
  if (filter.status !== undefined) runCond.push('status = {status:String}')
  if (filter.q !== undefined)
    runCond.push(Q_GOAL_OR_ID)

  const timeCond: string[] = []
  if (filter.from) timeCond.push("started_at >= {from:DateTime64(3, 'UTC')}")
  if (filter.to) timeCond.push("started_at <= {to:DateTime64(3, 'UTC')}")
  if (cursor) {
    timeCond.push(KEYSET)
    params.c_started = cursor.startedAt
    params.c_org = cursor.org
    params.c_namespace = cursor.namespace
    params.c_agent = cursor.agent
    params.c_run_id = cursor.runId
  }

  const parts: string[] = []
  if (filter.status !== 'unknown') {
    parts.push(`SELECT org, namespace, agent, run_id, user_id, session_id, goal, toString(status) AS status,
        attempt, started_at, completed_at, duration_ms, turns, cost_usd
      FROM ${source(t.runs, { final: true })} ${where(runCond)}`)
  }
  if (filter.status === undefined || filter.status === 'unknown') {
    const wmCond = [...ident]
    if (filter.q !== undefined) wmCond.push(Q_ID)
    parts.push(`SELECT org, namespace, agent, run_id,
        argMax(user_id, (updated_at, version)) AS user_id, argMax(session_id, (updated_at, version)) AS session_id,
        '' AS goal, 'unknown' AS status, toUInt32(0) AS attempt, min(updated_at) AS started_at,
        CAST(NULL, 'Nullable(DateTime64(3, \\'UTC\\'))') AS completed_at, CAST(NULL, 'Nullable(UInt64)') AS duration_ms,
        toUInt32(0) AS turns, toFloat64(0) AS cost_usd
      FROM ${source(t.workingMemory)} ${where(wmCond)}
      GROUP BY org, namespace, agent, run_id
      HAVING (org, namespace, agent, run_id) NOT IN (SELECT org, namespace, agent, run_id FROM ${source(t.runs)} ${where(ident)})`)
  }
  const sql = `SELECT org, namespace, agent, run_id, user_id, session_id, goal, status, attempt,
      toString(started_at) AS started_text, toString(completed_at) AS completed_text, duration_ms, turns, cost_usd
    FROM (${parts.join('\nUNION ALL\n')})
    ${where(timeCond)}
    ORDER BY ${ORDER}
    LIMIT {limit:UInt32}`
  return { sql, params }
}

/** The checkpoint block of each run on the page (one query, sorting-key prefix bound). */
async function checkpointsFor(rows: ListRow[], signal?: AbortSignal, fromIndex = false) {
  if (rows.length === 0) return new Map<string, z.infer<typeof checkpointRowSchema>[]>()
  const keys = new Map<string, TupleParam>()
  for (const r of rows) keys.set(JSON.stringify([r.org, r.namespace, r.agent]), new TupleParam([r.org, r.namespace, r.agent]))
  const found = fromIndex ? await checkpointRowsFromIndex(rows, checkpointRowSchema, signal) : await queryRows(
    `SELECT org, namespace, agent, run_id, user_id, session_id, version, toString(updated_at) AS updated_at,
        lengthUTF8(content) AS chars, char_limit, is_deleted
     FROM ${source(tableNames().workingMemory, { final: true })}
     WHERE (org, namespace, agent) IN {keys:Array(Tuple(String, String, String))}
       AND run_id IN {ids:Array(String)} AND block_key = 'checkpoint'`,
    { keys: [...keys.values()], ids: [...new Set(rows.map((r) => r.run_id))] },
    checkpointRowSchema,
    { signal },
  )
  const byRun = new Map<string, typeof found>()
  for (const c of found) {
    const k = rowRunKey(c)
    byRun.set(k, [...(byRun.get(k) ?? []), c])
  }
  return byRun
}

/** Prefers the checkpoint under the run's own identity, else the newest one. */
function pickCheckpoint(row: ListRow, candidates: z.infer<typeof checkpointRowSchema>[] | undefined): CheckpointSummary | null {
  if (!candidates?.length) return null
  const own = candidates.find((c) => c.user_id === row.user_id && c.session_id === row.session_id)
  const chosen = own ?? [...candidates].sort((a, b) => b.updated_at.localeCompare(a.updated_at))[0]
  return {
    version: chosen.version,
    updatedAt: chosen.updated_at,
    chars: chosen.chars,
    charLimit: chosen.char_limit,
    isDeleted: chosen.is_deleted === 1,
    userId: chosen.user_id,
    sessionId: chosen.session_id,
  }
}

export function toRunSummary(row: ListRow, checkpoint: CheckpointSummary | null, flags: RunFlag[] = []): RunSummary {
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
    startedAt: chTimeToIso(row.started_text),
    completedAt: row.completed_text === null ? null : chTimeToIso(row.completed_text),
    durationMs: row.duration_ms,
    turns: row.turns,
    costUsd: row.cost_usd,
    checkpoint,
    flags,
  }
}

/**
 * Where the list is read from: the run index when it is installed (`auto`), else the union of
 * `loom.runs` and the checkpoint-only runs grouped from working memory on every request.
 */
export type RunsSource = 'auto' | 'index' | 'union'

export async function listRuns(
  filter: RunsFilter,
  cursor: RunsCursor | undefined,
  limit: number,
  signal?: AbortSignal,
  source: RunsSource = 'auto',
  /**
   * `flags: false` leaves every run's flags empty (for callers that do not show them, e.g. batches);
   * `flagScan` chooses how a flag filter is applied (see FlagScan; batches need every match).
   */
  options: { flags?: boolean; flagScan?: FlagScan; flagScanBudget?: number } = {},
): Promise<RunsPage> {
  const fromIndex = source === 'index' || (source === 'auto' && (await runIndexReady(signal)))
  requireIndexForFlags(filter, fromIndex)
  let rows: ListRow[]
  let scannedTo: RunsCursor | null = null
  if (fromIndex) {
    ;({ rows, scannedTo } = await listRowsFromIndex(filter, cursor, limit + 1, signal, options.flagScan, options.flagScanBudget))
  } else {
    const { sql, params } = buildRunsListQuery(filter, cursor, limit)
    rows = await queryRows(sql, params, listRowSchema, { signal })
  }
  const page = rows.slice(0, limit)
  const checkpoints = await checkpointsFor(page, signal, fromIndex)
  // Every listed run passed the flag filter: its flags need no second look.
  const flags =
    options.flags === false ? new Map<string, RunFlag[]>() : await flagsOfRuns(page, fromIndex || (await runIndexReady(signal)), signal, undefined, filter.flag ?? [])
  const runs = page.map((r) => {
    const key = runKey(r)
    return toRunSummary(r, pickCheckpoint(r, checkpoints.get(key)), flags.get(key))
  })
  const last = page[page.length - 1]
  if (rows.length <= limit && scannedTo) {
    // The search stopped early: go on from the last run it read, not the last one it kept.
    return { runs, nextCursor: encodeCursor(scannedTo), searchedTo: chTimeToIso(scannedTo.startedAt) }
  }
  const nextCursor =
    rows.length > limit && last
      ? encodeCursor({ startedAt: last.started_text, org: last.org, namespace: last.namespace, agent: last.agent, runId: last.run_id })
      : null
  return { runs, nextCursor }
}

export { listRowSchema, pickCheckpoint, checkpointsFor }
