/**
 * The runs list read from the run index (see lib/loom/run-index-ddl.ts) instead of grouping
 * every working-memory row on each request.
 *
 * Same contract as the union query in runs.ts: ORDER BY started_at DESC, org DESC, namespace DESC,
 * agent DESC, run_id DESC; keyset cursors; checkpoint-only runs with status "unknown", started at
 * their first working-memory write, under the identity of their newest block.
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
import { TupleParam } from '@clickhouse/client'
import { z } from 'zod'
import type { RunsCursor } from '../api/cursor'
import { getConfig } from '../config'
import { queryRows, type QueryParams } from '../clickhouse/query'
import { runIndexNames, type RunIndexNames } from '../loom/run-index-ddl'
import { tableNames, source } from '../loom/tables'
import { filterParams, identityConditions, Q_GOAL_OR_ID, qGoalOrId } from './run-filter-sql'
import { FLAG_QUERY_SETTINGS, flagFilterParams, flagFilterSql, flagRowCheck, flagRowPrefilters, flagsToLookUp, runsCarrying, sparsePrefilter } from './run-flags'
import { existingTables } from './schema-presence'
import type { RunsFilter } from './runs'
import { rowRunKey } from '../loom/identity'

/** The row shape of the runs list (same fields as the union query in runs.ts). */
export type IndexListRow = {
  org: string
  namespace: string
  agent: string
  run_id: string
  user_id: string
  session_id: string
  goal: string
  status: string
  attempt: number
  started_text: string
  completed_text: string | null
  duration_ms: number | null
  turns: number
  cost_usd: number
}

type Key = { started_text: string; org: string; namespace: string; agent: string; run_id: string }

export function indexNames(): RunIndexNames {
  return runIndexNames(getConfig().databases.runs)
}

/** True once the index is installed and backfilled (its meta table is created last). */
export async function runIndexReady(signal?: AbortSignal): Promise<boolean> {
  return (await existingTables(signal)).has(indexNames().meta)
}

const RUN_KEY_SCOPE =
  'org = {org:String} AND namespace = {namespace:String} AND agent = {agent:String} AND run_id = {run_id:String}'

/**
 * The WHERE clause for one run's rows in working memory (or its history copy), with the run's
 * parameters (org, namespace, agent, run_id). `user_id` and `session_id` sit before `run_id` in
 * that sorting key, so `run_id` alone leaves ClickHouse reading the agent's whole range; with the
 * index installed, the run's (user_id, session_id) pairs come from it and bind the whole prefix.
 * Same rows either way: the index holds every pair the run ever wrote under.
 */
export async function wmRunScope(signal?: AbortSignal): Promise<string> {
  if (!(await runIndexReady(signal))) return RUN_KEY_SCOPE
  return `${RUN_KEY_SCOPE} AND (user_id, session_id) IN (SELECT user_id, session_id FROM ${indexNames().sessions}
    WHERE org = {org:String} AND namespace = {namespace:String} AND run_id = {run_id:String} AND agent = {agent:String})`
}

/**
 * Narrows a namespace-wide working-memory read for one run_id (parameters org, namespace,
 * run_id) to the identities that run wrote under, when the index is installed; '1' otherwise.
 */
export async function wmRunIdentities(signal?: AbortSignal): Promise<string> {
  if (!(await runIndexReady(signal))) return '1'
  return `(agent, user_id, session_id) IN (SELECT agent, user_id, session_id FROM ${indexNames().sessions}
    WHERE org = {org:String} AND namespace = {namespace:String} AND run_id = {run_id:String})`
}

const ORDER_DESC = 'started_at DESC, org DESC, namespace DESC, agent DESC, run_id DESC'

function cursorParams(c: Key): QueryParams {
  return { c_started: c.started_text, c_org: c.org, c_namespace: c.namespace, c_agent: c.agent, c_run_id: c.run_id }
}

const candidateSchema = z.object({
  org: z.string(),
  namespace: z.string(),
  agent: z.string(),
  run_id: z.string(),
  started_text: z.string(),
  latest_user: z.string(),
  latest_session: z.string(),
  latest_goal: z.string(),
  latest_status: z.string(),
  latest_attempt: z.coerce.number(),
  latest_completed: z.string().nullable(),
  latest_duration: z.coerce.number().nullable(),
  latest_turns: z.coerce.number(),
  latest_cost: z.coerce.number(),
  latest_kind: z.coerce.number(),
  passes: z.coerce.number(),
  first_write_text: z.string(),
  has_run: z.coerce.number(),
  newest_user: z.string(),
  newest_session: z.string(),
})
type Candidate = z.infer<typeof candidateSchema>

const keyOf = rowRunKey

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
const FLAG_WINDOW_FIRST = 500

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
  cursor: Key | undefined,
  want: number,
  excluded: Set<string>,
  ix: RunIndexNames,
  signal?: AbortSignal,
  flagScan: FlagScan = 'checked',
  budget = FLAG_SCAN_BUDGET,
): Promise<{ found: { row: IndexListRow; firstWrite: boolean }[]; scannedTo: Key | null }> {
  const checkFlags = !!filter.flag?.length && flagScan === 'checked'
  const inner = identityConditions(filter)
  if (filter.from) inner.push("started_at >= {from:DateTime64(3, 'UTC')}")
  if (filter.to) inner.push("started_at <= {to:DateTime64(3, 'UTC')}")
  if (filter.status === 'unknown') inner.push('kind = 1')
  else if (filter.status !== undefined) inner.push('status = {status:String}')
  if (filter.q !== undefined) inner.push(Q_GOAL_OR_ID)
  if (filter.flag?.length) {
    if (checkFlags) inner.push(...(await flagRowPrefilters(filter.flag)))
    else inner.push(`(org, namespace, agent, run_id) IN (${await flagFilterSql(filter.flag, filter)})`)
  }
  const checks: string[] = []
  if (filter.status !== undefined) checks.push('tupleElement(latest, 4) = {status:String}')
  if (filter.q !== undefined)
    checks.push(qGoalOrId('tupleElement(latest, 3)'))
  const rowCheck = checkFlags ? flagRowCheck(filter.flag!, { status: 'tupleElement(latest, 4)', attempt: 'tupleElement(latest, 5)', kind: 'tupleElement(latest, 10)' }) : null
  if (rowCheck) checks.push(rowCheck)
  const lookUp = checkFlags ? flagsToLookUp(filter.flag!) : []
  const passes = checks.length ? checks.join(' AND ') : '1'

  const out: { row: IndexListRow; firstWrite: boolean }[] = []
  let after = cursor
  // Unmerged versions of a run take several rows of a window: ask for more than the page.
  let window = checkFlags && !sparsePrefilter(filter.flag!) ? FLAG_WINDOW_FIRST : 2 * want + 16
  let scanned = 0
  const now = new Date()
  for (let round = 0; round < 64 && out.length < want; round++) {
    if (checkFlags && scanned >= budget) return { found: out, scannedTo: after ?? null }
    const conds = [...inner]
    const params: QueryParams = { ...filterParams(filter), ...(filter.flag?.length ? flagFilterParams(now) : {}), window }
    if (after) {
      conds.push("started_at <= {c_started:DateTime64(3, 'UTC')}")
      conds.push(
        "(started_at, org, namespace, agent, run_id) < ({c_started:DateTime64(3, 'UTC')}, {c_org:String}, {c_namespace:String}, {c_agent:String}, {c_run_id:String})",
      )
      Object.assign(params, cursorParams(after))
    }
    const windowSql = `SELECT started_at, org, namespace, agent, run_id, kind FROM ${ix.runs}
        ${conds.length ? `WHERE ${conds.join(' AND ')}` : ''}
        ORDER BY ${ORDER_DESC}
        LIMIT {window:UInt32}`
    const sql = `SELECT org, namespace, agent, run_id, c.started_text AS started_text,
        latest_user, latest_session, latest_goal, latest_status, latest_attempt, latest_completed, latest_duration,
        latest_turns, latest_cost, latest_kind, passes, o.first_write_text AS first_write_text, o.has_run AS has_run,
        o.newest_user AS newest_user, o.newest_session AS newest_session
      FROM (
        SELECT org, namespace, agent, run_id, toString(started_at) AS started_text,
          argMax(tuple(user_id, session_id, goal, toString(status), attempt, toString(completed_at), duration_ms, turns, cost_usd, kind), version) AS latest,
          tupleElement(latest, 1) AS latest_user, tupleElement(latest, 2) AS latest_session, tupleElement(latest, 3) AS latest_goal,
          tupleElement(latest, 4) AS latest_status, tupleElement(latest, 5) AS latest_attempt, tupleElement(latest, 6) AS latest_completed,
          tupleElement(latest, 7) AS latest_duration, tupleElement(latest, 8) AS latest_turns, tupleElement(latest, 9) AS latest_cost,
          tupleElement(latest, 10) AS latest_kind, ${passes} AS passes
        FROM ${ix.runs}
        WHERE (started_at, org, namespace, agent, run_id) IN (SELECT started_at, org, namespace, agent, run_id FROM (${windowSql}))
        GROUP BY started_at, org, namespace, agent, run_id
      ) AS c
      LEFT JOIN (
        SELECT org, namespace, agent, run_id, toString(min(first_at)) AS first_write_text, max(has_run_row) AS has_run,
          argMaxMerge(newest_identity) AS newest, tupleElement(newest, 1) AS newest_user, tupleElement(newest, 2) AS newest_session
        FROM ${ix.orphans}
        WHERE (org, namespace, agent, run_id) IN (SELECT org, namespace, agent, run_id FROM (${windowSql}) WHERE kind = 1)
        GROUP BY org, namespace, agent, run_id
      ) AS o USING (org, namespace, agent, run_id)
      ORDER BY started_text DESC, org DESC, namespace DESC, agent DESC, run_id DESC`
    const rows = await queryRows(sql, params, candidateSchema, { signal, settings: filter.flag?.length && !checkFlags ? FLAG_QUERY_SETTINGS : undefined })
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
      if (row && r.passes === 1 && !(r.latest_kind === 1 && excluded.has(keyOf(row))) && (!flagged || flagged.has(keyOf(row)))) {
        out.push({ row, firstWrite: r.latest_kind === 1 })
        if (out.length >= want) break
      }
    }
    const last = rows[rows.length - 1]
    after = { started_text: last.started_text, org: last.org, namespace: last.namespace, agent: last.agent, run_id: last.run_id }
    window = checkFlags ? nextFlagWindow(window, want - out.length, out.length, scanned) : Math.min(window * 4, 100_000)
  }
  return { found: out, scannedTo: null }
}

/** A candidate as a list row; null for a first-write row that no longer stands for a checkpoint-only run. */
function toListRow(r: Candidate): IndexListRow | null {
  if (r.latest_kind === 1) {
    // Listed at its first write only, and only while the run has no run row.
    if (r.has_run !== 0 || r.first_write_text !== r.started_text) return null
    return {
      org: r.org,
      namespace: r.namespace,
      agent: r.agent,
      run_id: r.run_id,
      user_id: r.newest_user,
      session_id: r.newest_session,
      goal: '',
      status: 'unknown',
      attempt: 0,
      started_text: r.started_text,
      completed_text: null,
      duration_ms: null,
      turns: 0,
      cost_usd: 0,
    }
  }
  return {
    org: r.org,
    namespace: r.namespace,
    agent: r.agent,
    run_id: r.run_id,
    user_id: r.latest_user,
    session_id: r.latest_session,
    goal: r.latest_goal,
    status: r.latest_status,
    attempt: r.latest_attempt,
    started_text: r.started_text,
    completed_text: r.latest_completed,
    duration_ms: r.latest_duration,
    turns: r.latest_turns,
    cost_usd: r.latest_cost,
  }
}

/** Up to `want` rows of the runs list after the cursor (the caller asks for limit + 1). */
export async function listRowsFromIndex(
  filter: RunsFilter,
  cursor: RunsCursor | undefined,
  want: number,
  signal?: AbortSignal,
  flagScan: FlagScan = 'checked',
  /** Rows a checked flag scan reads at most (FLAG_SCAN_BUDGET; smaller in tests). */
  budget = FLAG_SCAN_BUDGET,
): Promise<{ rows: IndexListRow[]; scannedTo: RunsCursor | null }> {
  const ix = indexNames()
  const after: Key | undefined = cursor
    ? { started_text: cursor.startedAt, org: cursor.org, namespace: cursor.namespace, agent: cursor.agent, run_id: cursor.runId }
    : undefined
  const excluded = new Set<string>()
  for (let attempt = 0; ; attempt++) {
    const { found, scannedTo } = await scanIndex(filter, after, want, excluded, ix, signal, flagScan, budget)
    const page = found.map((f) => f.row)
    const shown = found.filter((f) => f.firstWrite).map((f) => f.row)
    const result = {
      rows: page,
      scannedTo: scannedTo && { startedAt: scannedTo.started_text, org: scannedTo.org, namespace: scannedTo.namespace, agent: scannedTo.agent, runId: scannedTo.run_id },
    }
    if (shown.length === 0 || attempt >= 4) return result
    // A run row written at the same moment as the run's first checkpoint can leave a stale
    // checkpoint-only entry behind: confirm the few shown here against loom.runs (key lookups).
    const stale = await queryRows(
      `SELECT org, namespace, agent, run_id FROM ${source(tableNames().runs)}
       WHERE (org, namespace, agent, run_id) IN {keys:Array(Tuple(String, String, String, String))}
       GROUP BY org, namespace, agent, run_id`,
      { keys: shown.map((r) => new TupleParam([r.org, r.namespace, r.agent, r.run_id])) },
      z.object({ org: z.string(), namespace: z.string(), agent: z.string(), run_id: z.string() }),
      { signal },
    )
    if (stale.length === 0) return result
    for (const s of stale) excluded.add(keyOf(s))
  }
}

/** The latest checkpoint block of each listed run, per (user_id, session_id): a key lookup. */
export async function checkpointRowsFromIndex<S extends z.ZodType>(
  runs: { org: string; namespace: string; agent: string; run_id: string }[],
  schema: S,
  signal?: AbortSignal,
): Promise<z.infer<S>[]> {
  if (runs.length === 0) return []
  const keys = new Map<string, TupleParam>()
  for (const r of runs) keys.set(keyOf(r), new TupleParam([r.org, r.namespace, r.agent, r.run_id]))
  return queryRows(
    `SELECT org, namespace, agent, run_id, user_id, session_id, version, toString(updated_at) AS updated_at, chars, char_limit, is_deleted
     FROM ${indexNames().checkpoints} FINAL
     WHERE (org, namespace, agent, run_id) IN {keys:Array(Tuple(String, String, String, String))}`,
    { keys: [...keys.values()] },
    schema,
    { signal },
  )
}

/**
 * One row per run of the runs list (org, namespace, agent, run_id, status, started_at), from the
 * run index, for aggregations over the list's filters (charts, counts): the same runs as the
 * union query, without grouping working memory. Bind `filterParams(filter)`-style parameters:
 * org, namespace, agent, status, q, from, to (only those the filter sets). Needs runIndexReady().
 */
export async function runIndexRunsSql(filter: RunsFilter): Promise<string> {
  const ix = indexNames()
  const ident = identityConditions(filter)
  const where = [...ident]
  if (filter.from) where.push("started_at >= {from:DateTime64(3, 'UTC')}")
  if (filter.to) where.push("started_at <= {to:DateTime64(3, 'UTC')}")
  const outer: string[] = []
  if (filter.status !== undefined) outer.push('status = {status:String}')
  if (filter.q !== undefined) outer.push(Q_GOAL_OR_ID)
  if (filter.flag?.length) outer.push(`(org, namespace, agent, run_id) IN (${await flagFilterSql(filter.flag, filter)})`)
  // Checkpoint-only runs: first write, no run row marked later, none in loom.runs (a race).
  const orphans = `SELECT org, namespace, agent, run_id, min(first_at) FROM ${ix.orphans} ${ident.length ? `WHERE ${ident.join(' AND ')}` : ''}
      GROUP BY org, namespace, agent, run_id HAVING max(has_run_row) = 0`
  // FINAL (latest version of each row): an ordered merge, far cheaper than a hash GROUP BY here.
  // Filters on status and goal stay outside it, so they judge the latest version only.
  return `SELECT org, namespace, agent, run_id, status, started_at FROM (
    SELECT org, namespace, agent, run_id, toString(status) AS status, goal, started_at, kind
    FROM ${ix.runs} FINAL ${where.length ? `WHERE ${where.join(' AND ')}` : ''})
  WHERE (kind = 0 OR ((org, namespace, agent, run_id, started_at) IN (${orphans})
      AND (org, namespace, agent, run_id) NOT IN (SELECT org, namespace, agent, run_id FROM ${source(tableNames().runs)}
        WHERE (org, namespace, agent, run_id) IN (SELECT org, namespace, agent, run_id FROM (${orphans})))))${outer.length ? ` AND ${outer.join(' AND ')}` : ''}`
}

/** Parameters for runIndexRunsSql (and the list's queries) from a filter. */
export function runIndexParams(filter: RunsFilter): QueryParams {
  return { ...filterParams(filter), ...(filter.flag?.length ? flagFilterParams() : {}) }
}
