/**
 * The runs list's filters (lib/queries/runs.ts) as reusable SQL, for queries that aggregate over
 * the same set of runs the list shows: `loom.runs` rows (latest version, via FINAL) plus the
 * checkpoint-only runs grouped from working memory, which have status `unknown`, match `q` on
 * their run_id only, and count as started at their first working-memory write.
 *
 * Only fixed fragments are produced; every value travels as a bound parameter.
 */
import type { QueryParams } from '../clickhouse/query'
import { toChTime } from '../clickhouse/time'
import { AppError } from '../errors'
import { tableNames, source } from '../loom/tables'
import type { RunsFilter } from './runs'

const contains = (expr: string) => `positionCaseInsensitiveUTF8(${expr}, {q:String}) > 0`
/** `q` on a run whose goal is the expression `goal`: its goal, run_id or agent name. */
export const qGoalOrId = (goal: string) => `(${contains(goal)} OR ${contains('run_id')} OR ${contains('agent')})`
/** `q` on a run row: its goal, run_id or agent name. */
export const Q_GOAL_OR_ID = qGoalOrId('goal')
/** `q` on a checkpoint-only run (no goal): its run_id or agent name. */
export const Q_ID = `(${contains('run_id')} OR ${contains('agent')})`
const FROM = "{from:DateTime64(3, 'UTC')}"
const TO = "{to:DateTime64(3, 'UTC')}"

export function whereSql(conditions: string[]): string {
  return conditions.length ? `WHERE ${conditions.join(' AND ')}` : ''
}

/** The parameters every fragment below may reference. */
export function filterParams(f: RunsFilter): QueryParams {
  const p: QueryParams = {}
  if (f.org !== undefined) p.org = f.org
  if (f.namespace !== undefined) p.namespace = f.namespace
  if (f.agent !== undefined) p.agent = f.agent
  if (f.status !== undefined) p.status = f.status
  if (f.q !== undefined) p.q = f.q
  if (f.from) p.from = toChTime(f.from)
  if (f.to) p.to = toChTime(f.to)
  return p
}

/** org / namespace / agent: the sorting-key prefix of every Loom table involved. */
export function identityConditions(f: RunsFilter): string[] {
  const c: string[] = []
  if (f.org !== undefined) c.push('org = {org:String}')
  if (f.namespace !== undefined) c.push('namespace = {namespace:String}')
  if (f.agent !== undefined) c.push('agent = {agent:String}')
  return c
}

/** Conditions on a time column (the list filters on when a run started). */
export function timeConditions(f: RunsFilter, column: string): string[] {
  const c: string[] = []
  if (f.from) c.push(`${column} >= ${FROM}`)
  if (f.to) c.push(`${column} <= ${TO}`)
  return c
}

/** Conditions on a `loom.runs` row (read with FINAL, so they judge the latest version). */
export function runRowConditions(f: RunsFilter): string[] {
  const c = identityConditions(f)
  if (f.status !== undefined) c.push('status = {status:String}')
  if (f.q !== undefined) c.push(Q_GOAL_OR_ID)
  return [...c, ...timeConditions(f, 'started_at')]
}

/** Whether the filter admits runs with a `loom.runs` row, and checkpoint-only runs. */
export function filterParts(f: RunsFilter) {
  return { withRuns: f.status !== 'unknown', withOrphans: f.status === undefined || f.status === 'unknown' }
}

/** True when the filter narrows more than the identity prefix does. */
export function narrowsBeyondIdentity(f: RunsFilter): boolean {
  return f.status !== undefined || f.q !== undefined || !!f.from || !!f.to || !!f.flag?.length
}

/** Flags are computed from the run index only: a flag filter without it is refused, not ignored. */
export function requireIndexForFlags(f: RunsFilter, indexed: boolean): void {
  if (f.flag?.length && !indexed) {
    throw new AppError('unavailable', 'flag filters need the run index, which is not installed here (run npm run db:init)', { details: { field: 'flag' } })
  }
}

/**
 * Checkpoint-only runs that pass the filter: `org, namespace, agent, run_id, started_at`.
 * Groups the identity prefix of working memory, as the list's union query does.
 */
export function orphanRunsSql(f: RunsFilter): string {
  const t = tableNames()
  const ident = identityConditions(f)
  const wm = [...ident]
  if (f.q !== undefined) wm.push(Q_ID)
  const having = [
    `(org, namespace, agent, run_id) NOT IN (SELECT org, namespace, agent, run_id FROM ${source(t.runs)} ${whereSql(ident)})`,
    ...timeConditions(f, 'started_at'),
  ]
  return `SELECT org, namespace, agent, run_id, min(updated_at) AS started_at
    FROM ${source(t.workingMemory)} ${whereSql(wm)}
    GROUP BY org, namespace, agent, run_id
    HAVING ${having.join(' AND ')}`
}

/**
 * Every run the list would show for the filter, as `org, namespace, agent, run_id, status,
 * started_at` (a subquery; pass `filterParams(f)` along).
 */
export function filteredRunsSql(f: RunsFilter): string {
  const { withRuns, withOrphans } = filterParts(f)
  const parts: string[] = []
  if (withRuns) {
    parts.push(`SELECT org, namespace, agent, run_id, toString(status) AS status, started_at
      FROM ${source(tableNames().runs, { final: true })} ${whereSql(runRowConditions(f))}`)
  }
  if (withOrphans) {
    parts.push(`SELECT org, namespace, agent, run_id, 'unknown' AS status, started_at FROM (${orphanRunsSql(f)})`)
  }
  return parts.join('\nUNION ALL\n')
}
