import { TupleParam } from '@clickhouse/client'
import { and, param, sql, trusted, type Sql } from '../clickhouse/sql'
import { toChTime } from '../tables/time'
import type { IdentityFilter, RunsFilter } from './filter'
import { qMatchesRun } from './q'

/** The type every run-set time parameter is bound as. */
export const CH_TIME_TYPE = "DateTime64(3, 'UTC')"

/** org / namespace / agent: the sorting-key prefix of every Loom table involved. */
export function identityConditions(f: IdentityFilter): Sql[] {
  const c: Sql[] = []
  if (f.org !== undefined) c.push(sql`org = ${param('org', 'String', f.org)}`)
  if (f.namespace !== undefined) c.push(sql`namespace = ${param('namespace', 'String', f.namespace)}`)
  if (f.agent !== undefined) c.push(sql`agent = ${param('agent', 'String', f.agent)}`)
  return c
}

/** A run's key columns, as every run-scoped table has them. */
export type RunKeyColumns = { org: string; namespace: string; agent: string; run_id: string }

/** `(org, namespace, agent, run_id) IN` the given runs (each once), bound as parameter `name`. */
export function inRunKeys(name: string, runs: readonly RunKeyColumns[]): Sql {
  const keys = new Map(
    runs.map((r) => [
      JSON.stringify([r.org, r.namespace, r.agent, r.run_id]),
      new TupleParam([r.org, r.namespace, r.agent, r.run_id]),
    ]),
  )
  return sql`(org, namespace, agent, run_id) IN ${param(name, 'Array(Tuple(String, String, String, String))', [...keys.values()])}`
}

/** The (org, namespace, agent) of the given runs: a key-prefix condition on a table sorted by those first. */
export function inAgentKeys(name: string, runs: readonly RunKeyColumns[]): Sql {
  const keys = new Map(
    runs.map((r) => [JSON.stringify([r.org, r.namespace, r.agent]), new TupleParam([r.org, r.namespace, r.agent])]),
  )
  return sql`(org, namespace, agent) IN ${param(name, 'Array(Tuple(String, String, String))', [...keys.values()])}`
}

/** The filter's time range on a column or expression (the list filters on when a run started). */
export function timeConditions(f: RunsFilter, column: Sql = trusted('started_at')): Sql[] {
  const c: Sql[] = []
  if (f.from) c.push(sql`${column} >= ${param('from', CH_TIME_TYPE, toChTime(f.from))}`)
  if (f.to) c.push(sql`${column} <= ${param('to', CH_TIME_TYPE, toChTime(f.to))}`)
  return c
}

/** `status` on a column or expression holding it. */
export function statusCondition(status: string, column: Sql = trusted('status')): Sql {
  return sql`${column} = ${param('status', 'String', status)}`
}

/** status and `q` on a run row (`loom.runs` read with FINAL, so they judge the latest version). */
export function runValueConditions(f: RunsFilter): Sql[] {
  const c: Sql[] = []
  if (f.status !== undefined) c.push(statusCondition(f.status))
  if (f.q !== undefined) c.push(qMatchesRun(f.q))
  return c
}

/** Every condition on a `loom.runs` row: identity, status, `q`, then the time range. */
export function runRowConditions(f: RunsFilter): Sql[] {
  return [...identityConditions(f), ...runValueConditions(f), ...timeConditions(f)]
}

/** `WHERE a AND b …`, or nothing when there are no conditions. */
export function where(conditions: readonly Sql[]): Sql {
  return conditions.length ? sql`WHERE ${and(conditions)}` : trusted('')
}
