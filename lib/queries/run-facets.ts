/**
 * Suggestions for the runs filters: the org, namespace or agent values that start with what the
 * operator typed (case-insensitive), most runs first. Read from the run facets table when it is
 * installed (one row per org/namespace/agent), else from the run index, else from Loom's tables.
 * The suggested field is one of three fixed column names; every value is a bound parameter.
 */
import { z } from 'zod'
import { FACET_FIELDS } from '../api/schemas'
import { getConfig } from '../config'
import { selectRows } from '../clickhouse/query'
import { param, sql, trusted, type Sql } from '../clickhouse/sql'
import { runFacetsNames } from '../derived/names'
import { identityConditions, where } from '../run-set/conditions'
import type { IdentityFilter } from '../run-set/filter'
import { unionRunsSql } from '../run-set/union'
import { indexNames, runIndexReady } from '../run-set/run-index'
import { existingTables } from '../clickhouse/schema-presence'
import type { FacetsResponse } from '../endpoints/runs'
export type { FacetValue, FacetsResponse } from '../endpoints/runs'

export type FacetField = (typeof FACET_FIELDS)[number]

export type FacetsQuery = {
  field: FacetField
  prefix?: string
  limit: number
  /** Narrow to these identities (the one being suggested is ignored). */
  org?: string
  namespace?: string
  agent?: string
}

/** The three columns, spelled out so no request text ever reaches the SQL. */
const COLUMN: Record<FacetField, string> = { org: 'org', namespace: 'namespace', agent: 'agent' }

const rowSchema = z.object({ value: z.string(), runs: z.coerce.number() })

/** The identities to narrow to (the one being suggested left out), and the typed prefix. */
function narrowing(q: FacetsQuery): { filter: IdentityFilter; prefix: Sql[] } {
  const filter = {
    org: q.field === 'org' ? undefined : q.org,
    namespace: q.field === 'namespace' ? undefined : q.namespace,
    agent: q.field === 'agent' ? undefined : q.agent,
  }
  const prefix = q.prefix
    ? [sql`startsWith(lowerUTF8(${trusted(COLUMN[q.field])}), lowerUTF8(${param('prefix', 'String', q.prefix)}))`]
    : []
  return { filter, prefix }
}

export async function runFacets(q: FacetsQuery, signal?: AbortSignal): Promise<FacetsResponse> {
  const col = trusted(COLUMN[q.field])
  const { filter, prefix } = narrowing(q)
  const conds = [...identityConditions(filter), ...prefix]
  const order = sql`ORDER BY runs DESC, value ASC LIMIT ${param('limit', 'UInt32', q.limit)}`
  const facets = runFacetsNames(getConfig().databases.runs)
  let statement: Sql
  const tables = await existingTables(signal)
  if (tables.has(facets.meta) && tables.has(facets.table) && (await runIndexReady(signal))) {
    // One row per (org, namespace, agent): a run belongs to exactly one, so the per-triple counts add up.
    statement = sql`SELECT ${col} AS value, sum(n) AS runs FROM (
        SELECT org, namespace, agent, uniqMerge(runs) AS n FROM ${trusted(facets.table)} ${where(conds)}
        GROUP BY org, namespace, agent)
      GROUP BY value ${order}`
  } else if (await runIndexReady(signal)) {
    // Every run has at least one row in the index (its run rows, or its first write); count the keys.
    statement = sql`SELECT ${col} AS value, uniqExact(org, namespace, agent, run_id) AS runs
      FROM ${trusted(indexNames().runs)} ${where(conds)}
      GROUP BY value ${order}`
  } else {
    statement = sql`SELECT ${col} AS value, count() AS runs FROM (${unionRunsSql(filter)}) ${where(prefix)}
      GROUP BY value ${order}`
  }
  return { values: await selectRows(statement, rowSchema, { signal }) }
}
