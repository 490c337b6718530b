/**
 * The runs list read from the run index (see lib/loom/ddl.ts, runIndexDdl) instead of grouping
 * every working-memory row on each request.
 *
 * Same contract as the union query in runs.ts: ORDER BY started_at DESC, org DESC, namespace DESC,
 * agent DESC, run_id DESC; keyset cursors; checkpoint-only runs with status "unknown", started at
 * their first working-memory write, under the identity of their newest block.
 *
 * - Runs with a run row come from `run_index` (sorted by the list order, read in reverse order with
 *   a LIMIT, so a page costs a few granules wherever the cursor points). The table holds one row
 *   per run version until merges collapse them: candidates are picked by the row's own values, then
 *   judged on the run's latest version.
 * - Checkpoint-only runs come from `run_index_orphans`, which only holds runs that wrote working
 *   memory while they had no run row: the cost of that part grows with the number of such runs,
 *   not with the size of working memory. Each one that reaches a page is checked against
 *   `loom.runs` (a run row written concurrently with its first checkpoint is dropped there).
 */
import { TupleParam } from '@clickhouse/client'
import { z } from 'zod'
import type { RunsCursor } from '../api/cursor'
import { getConfig } from '../config'
import { queryRows, type QueryParams } from '../clickhouse/query'
import { toChTime } from '../clickhouse/time'
import { runIndexNames, type RunIndexNames } from '../loom/ddl'
import { tableNames } from '../loom/tables'
import { existingTables } from './schema-presence'
import type { RunsFilter } from './runs'

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
const Q_GOAL_OR_ID = '(positionCaseInsensitiveUTF8(goal, {q:String}) > 0 OR positionCaseInsensitiveUTF8(run_id, {q:String}) > 0)'

function baseParams(filter: RunsFilter): QueryParams {
  const p: QueryParams = {}
  if (filter.org !== undefined) p.org = filter.org
  if (filter.namespace !== undefined) p.namespace = filter.namespace
  if (filter.agent !== undefined) p.agent = filter.agent
  if (filter.q !== undefined) p.q = filter.q
  if (filter.status !== undefined) p.status = filter.status
  if (filter.from) p.from = toChTime(filter.from)
  if (filter.to) p.to = toChTime(filter.to)
  return p
}

function identityConditions(filter: RunsFilter): string[] {
  const c: string[] = []
  if (filter.org !== undefined) c.push('org = {org:String}')
  if (filter.namespace !== undefined) c.push('namespace = {namespace:String}')
  if (filter.agent !== undefined) c.push('agent = {agent:String}')
  return c
}

function cursorParams(c: Key): QueryParams {
  return { c_started: c.started_text, c_org: c.org, c_namespace: c.namespace, c_agent: c.agent, c_run_id: c.run_id }
}

const runsPartSchema = z.object({
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
  passes: z.coerce.number(),
})

/**
 * Up to `want` runs with a run row, after the cursor, in list order. Each round reads a window of
 * candidates in reverse sorting-key order (pre-filtered on the row's own values), then keeps those
 * whose latest version passes the filters; the next round starts after the last candidate.
 */
async function runsPart(filter: RunsFilter, cursor: Key | undefined, want: number, ix: RunIndexNames, signal?: AbortSignal) {
  const ident = identityConditions(filter)
  const inner = [...ident]
  if (filter.from) inner.push("started_at >= {from:DateTime64(3, 'UTC')}")
  if (filter.to) inner.push("started_at <= {to:DateTime64(3, 'UTC')}")
  if (filter.status !== undefined) inner.push('status = {status:String}')
  if (filter.q !== undefined) inner.push(Q_GOAL_OR_ID)
  const checks: string[] = []
  if (filter.status !== undefined) checks.push('tupleElement(latest, 4) = {status:String}')
  if (filter.q !== undefined)
    checks.push('(positionCaseInsensitiveUTF8(tupleElement(latest, 3), {q:String}) > 0 OR positionCaseInsensitiveUTF8(run_id, {q:String}) > 0)')
  const passes = checks.length ? checks.join(' AND ') : '1'

  const out: IndexListRow[] = []
  let after = cursor
  // Unmerged versions of a run take several rows of a window: ask for more than the page.
  let window = 2 * want + 16
  for (let round = 0; round < 64 && out.length < want; round++) {
    const conds = [...inner]
    const params: QueryParams = { ...baseParams(filter), window }
    if (after) {
      conds.push("started_at <= {c_started:DateTime64(3, 'UTC')}")
      conds.push(
        "(started_at, org, namespace, agent, run_id) < ({c_started:DateTime64(3, 'UTC')}, {c_org:String}, {c_namespace:String}, {c_agent:String}, {c_run_id:String})",
      )
      Object.assign(params, cursorParams(after))
    }
    const sql = `SELECT org, namespace, agent, run_id, toString(started_at) AS started_text,
        argMax(tuple(user_id, session_id, goal, toString(status), attempt, toString(completed_at), duration_ms, turns, cost_usd), version) AS latest,
        tupleElement(latest, 1) AS latest_user, tupleElement(latest, 2) AS latest_session, tupleElement(latest, 3) AS latest_goal,
        tupleElement(latest, 4) AS latest_status, tupleElement(latest, 5) AS latest_attempt, tupleElement(latest, 6) AS latest_completed,
        tupleElement(latest, 7) AS latest_duration, tupleElement(latest, 8) AS latest_turns, tupleElement(latest, 9) AS latest_cost,
        ${passes} AS passes
      FROM ${ix.runs}
      WHERE (started_at, org, namespace, agent, run_id) IN (
        SELECT started_at, org, namespace, agent, run_id FROM ${ix.runs}
        ${conds.length ? `WHERE ${conds.join(' AND ')}` : ''}
        ORDER BY ${ORDER_DESC}
        LIMIT {window:UInt32})
      GROUP BY started_at, org, namespace, agent, run_id
      ORDER BY ${ORDER_DESC}`
    const rows = await queryRows(sql, params, runsPartSchema, { signal })
    if (rows.length === 0) break
    for (const r of rows) {
      if (r.passes !== 1) continue
      out.push({
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
      })
      if (out.length >= want) break
    }
    const last = rows[rows.length - 1]
    after = { started_text: last.started_text, org: last.org, namespace: last.namespace, agent: last.agent, run_id: last.run_id }
    window = Math.min(window * 4, 100_000)
  }
  return out
}

const orphanSchema = z.object({
  org: z.string(),
  namespace: z.string(),
  agent: z.string(),
  run_id: z.string(),
  started_text: z.string(),
  newest_user: z.string(),
  newest_session: z.string(),
})

/** Up to `want` checkpoint-only runs after the cursor, in list order, leaving out `excluded`. */
async function orphansPart(
  filter: RunsFilter,
  cursor: Key | undefined,
  want: number,
  excluded: TupleParam[],
  ix: RunIndexNames,
  signal?: AbortSignal,
): Promise<IndexListRow[]> {
  const where = identityConditions(filter)
  if (filter.q !== undefined) where.push('positionCaseInsensitiveUTF8(run_id, {q:String}) > 0')
  const params: QueryParams = { ...baseParams(filter), want }
  if (excluded.length) {
    where.push('(org, namespace, agent, run_id) NOT IN {excluded:Array(Tuple(String, String, String, String))}')
    params.excluded = excluded
  }
  const having = ['max(has_run_row) = 0']
  if (filter.from) having.push("first_write >= {from:DateTime64(3, 'UTC')}")
  if (filter.to) having.push("first_write <= {to:DateTime64(3, 'UTC')}")
  if (cursor) {
    having.push(
      "(first_write, org, namespace, agent, run_id) < ({c_started:DateTime64(3, 'UTC')}, {c_org:String}, {c_namespace:String}, {c_agent:String}, {c_run_id:String})",
    )
    Object.assign(params, cursorParams(cursor))
  }
  const rows = await queryRows(
    `SELECT org, namespace, agent, run_id, min(first_at) AS first_write, toString(first_write) AS started_text,
        argMaxMerge(newest_identity) AS newest, tupleElement(newest, 1) AS newest_user, tupleElement(newest, 2) AS newest_session
      FROM ${ix.orphans}
      ${where.length ? `WHERE ${where.join(' AND ')}` : ''}
      GROUP BY org, namespace, agent, run_id
      HAVING ${having.join(' AND ')}
      ORDER BY first_write DESC, org DESC, namespace DESC, agent DESC, run_id DESC
      LIMIT {want:UInt32}`,
    params,
    orphanSchema,
    { signal },
  )
  return rows.map((r) => ({
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
  }))
}

/** ClickHouse compares String bytewise: compare the UTF-8 bytes, not UTF-16 code units. */
function bytes(a: string, b: string) {
  return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'))
}

/** Descending list order. */
export function compareListOrder(a: Key, b: Key): number {
  return (
    bytes(b.started_text, a.started_text) ||
    bytes(b.org, a.org) ||
    bytes(b.namespace, a.namespace) ||
    bytes(b.agent, a.agent) ||
    bytes(b.run_id, a.run_id)
  )
}

const keyOf = (r: { org: string; namespace: string; agent: string; run_id: string }) => JSON.stringify([r.org, r.namespace, r.agent, r.run_id])

/** Up to `want` rows of the runs list after the cursor (the caller asks for limit + 1). */
export async function listRowsFromIndex(
  filter: RunsFilter,
  cursor: RunsCursor | undefined,
  want: number,
  signal?: AbortSignal,
): Promise<IndexListRow[]> {
  const ix = indexNames()
  const after: Key | undefined = cursor
    ? { started_text: cursor.startedAt, org: cursor.org, namespace: cursor.namespace, agent: cursor.agent, run_id: cursor.runId }
    : undefined
  const withRuns = filter.status !== 'unknown'
  const withOrphans = filter.status === undefined || filter.status === 'unknown'
  const runs = withRuns ? await runsPart(filter, after, want, ix, signal) : []
  if (!withOrphans) return runs
  const excluded = new Map<string, TupleParam>()
  for (let attempt = 0; ; attempt++) {
    const orphans = await orphansPart(filter, after, want, [...excluded.values()], ix, signal)
    const page = [...runs, ...orphans].sort(compareListOrder).slice(0, want)
    const shown = page.filter((r) => orphans.includes(r))
    if (shown.length === 0 || attempt >= 4) return page
    // A run row written at the same moment as the run's first checkpoint can leave a stale
    // orphan behind: confirm against loom.runs (a key lookup for the few shown here).
    const stale = await queryRows(
      `SELECT org, namespace, agent, run_id FROM ${tableNames().runs}
       WHERE (org, namespace, agent, run_id) IN {keys:Array(Tuple(String, String, String, String))}
       GROUP BY org, namespace, agent, run_id`,
      { keys: shown.map((r) => new TupleParam([r.org, r.namespace, r.agent, r.run_id])) },
      z.object({ org: z.string(), namespace: z.string(), agent: z.string(), run_id: z.string() }),
      { signal },
    )
    if (stale.length === 0) return page
    for (const s of stale) excluded.set(keyOf(s), new TupleParam([s.org, s.namespace, s.agent, s.run_id]))
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
