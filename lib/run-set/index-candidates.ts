/**
 * One window of the run index in list order, collapsed to each run's latest version, with the
 * checkpoint-only candidates of the window looked up in the orphans table (see index-scan.ts).
 */
import { z } from 'zod'
import { param, sql, trusted, type Sql } from '../clickhouse/sql'
import type { RunIndexNames } from '../derived/names'
import { where } from './conditions'
import type { ListRow } from './list-row'
import { LIST_ORDER } from './order'

export const candidateSchema = z.object({
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
  /** Index rows of this run at this start time (its unmerged versions). */
  versions: z.coerce.number(),
})
export type Candidate = z.infer<typeof candidateSchema>

/** Where the latest version's values sit in the `latest` tuple, for checks on them. */
export const LATEST = {
  goal: trusted('tupleElement(latest, 3)'),
  status: trusted('tupleElement(latest, 4)'),
  attempt: trusted('tupleElement(latest, 5)'),
  kind: trusted('tupleElement(latest, 10)'),
}

/**
 * The candidates of one window: up to `window` index rows that pass `rowConditions` (each row's own
 * values), in list order; `passes` tells whether the run's latest version passes `latestChecks`.
 */
export function candidatesSql(ix: RunIndexNames, rowConditions: Sql[], latestChecks: Sql, window: number): Sql {
  const runs = trusted(ix.runs)
  const windowSql = sql`SELECT started_at, org, namespace, agent, run_id, kind FROM ${runs}
        ${where(rowConditions)}
        ORDER BY ${LIST_ORDER}
        LIMIT ${param('window', 'UInt32', window)}`
  return sql`SELECT org, namespace, agent, run_id, c.started_text AS started_text,
        latest_user, latest_session, latest_goal, latest_status, latest_attempt, latest_completed, latest_duration,
        latest_turns, latest_cost, latest_kind, passes, o.first_write_text AS first_write_text, o.has_run AS has_run,
        o.newest_user AS newest_user, o.newest_session AS newest_session, c.versions AS versions
      FROM (
        SELECT org, namespace, agent, run_id, toString(started_at) AS started_text,
          argMax(tuple(user_id, session_id, goal, toString(status), attempt, toString(completed_at), duration_ms, turns, cost_usd, kind), version) AS latest,
          tupleElement(latest, 1) AS latest_user, tupleElement(latest, 2) AS latest_session, tupleElement(latest, 3) AS latest_goal,
          tupleElement(latest, 4) AS latest_status, tupleElement(latest, 5) AS latest_attempt, tupleElement(latest, 6) AS latest_completed,
          tupleElement(latest, 7) AS latest_duration, tupleElement(latest, 8) AS latest_turns, tupleElement(latest, 9) AS latest_cost,
          tupleElement(latest, 10) AS latest_kind, ${latestChecks} AS passes, count() AS versions
        FROM ${runs}
        WHERE (started_at, org, namespace, agent, run_id) IN (SELECT started_at, org, namespace, agent, run_id FROM (${windowSql}))
        GROUP BY started_at, org, namespace, agent, run_id
      ) AS c
      LEFT JOIN (
        SELECT org, namespace, agent, run_id, toString(min(first_at)) AS first_write_text, max(has_run_row) AS has_run,
          argMaxMerge(newest_identity) AS newest, tupleElement(newest, 1) AS newest_user, tupleElement(newest, 2) AS newest_session
        FROM ${trusted(ix.orphans)}
        WHERE (org, namespace, agent, run_id) IN (SELECT org, namespace, agent, run_id FROM (${windowSql}) WHERE kind = 1)
        GROUP BY org, namespace, agent, run_id
      ) AS o USING (org, namespace, agent, run_id)
      ORDER BY started_text DESC, org DESC, namespace DESC, agent DESC, run_id DESC`
}

/** A candidate as a list row; null for a first-write row that no longer stands for a checkpoint-only run. */
export function toListRow(r: Candidate): ListRow | null {
  const key = { org: r.org, namespace: r.namespace, agent: r.agent, run_id: r.run_id, started_text: r.started_text }
  if (r.latest_kind === 1) {
    // Listed at its first write only, and only while the run has no run row.
    if (r.has_run !== 0 || r.first_write_text !== r.started_text) return null
    return {
      ...key,
      user_id: r.newest_user,
      session_id: r.newest_session,
      goal: '',
      status: 'unknown',
      attempt: 0,
      completed_text: null,
      duration_ms: null,
      turns: 0,
      cost_usd: 0,
    }
  }
  return {
    ...key,
    user_id: r.latest_user,
    session_id: r.latest_session,
    goal: r.latest_goal,
    status: r.latest_status,
    attempt: r.latest_attempt,
    completed_text: r.latest_completed,
    duration_ms: r.latest_duration,
    turns: r.latest_turns,
    cost_usd: r.latest_cost,
  }
}
