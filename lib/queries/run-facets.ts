/**
 * Suggestions for the runs filters: the org, namespace or agent values that start with what the
 * operator typed (case-insensitive), most runs first. Read from the run facets table when it is
 * installed (one row per org/namespace/agent), else from the run index, else from Loom's tables.
 * The suggested field is one of three fixed column names; every value is a bound parameter.
 */
import { z } from 'zod'
import { FACET_FIELDS } from '../api/schemas'
import { getConfig } from '../config'
import { queryRows, type QueryParams } from '../clickhouse/query'
import { runFacetsNames } from '../loom/facets-ddl'
import { filteredRunsSql, identityConditions, whereSql } from './run-filter-sql'
import { indexNames, runIndexReady } from './run-index'
import { existingTables } from './schema-presence'

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

export type FacetValue = { value: string; runs: number }
export type FacetsResponse = { values: FacetValue[] }

/** The three columns, spelled out so no request text ever reaches the SQL. */
const COLUMN: Record<FacetField, string> = { org: 'org', namespace: 'namespace', agent: 'agent' }

const rowSchema = z.object({ value: z.string(), runs: z.coerce.number() })

function narrowing(q: FacetsQuery): { conds: string[]; params: QueryParams } {
  const filter = {
    org: q.field === 'org' ? undefined : q.org,
    namespace: q.field === 'namespace' ? undefined : q.namespace,
    agent: q.field === 'agent' ? undefined : q.agent,
  }
  const conds = identityConditions(filter)
  const params: QueryParams = { limit: q.limit }
  for (const [k, v] of Object.entries(filter)) if (v !== undefined) params[k] = v
  if (q.prefix) {
    conds.push(`startsWith(lowerUTF8(${COLUMN[q.field]}), lowerUTF8({prefix:String}))`)
    params.prefix = q.prefix
  }
  return { conds, params }
}

const ORDER = 'ORDER BY runs DESC, value ASC LIMIT {limit:UInt32}'

export async function runFacets(q: FacetsQuery, signal?: AbortSignal): Promise<FacetsResponse> {
  const col = COLUMN[q.field]
  const { conds, params } = narrowing(q)
  const facets = runFacetsNames(getConfig().databases.runs)
  let sql: string
  if ((await existingTables(signal)).has(facets.meta)) {
    // One row per (org, namespace, agent): a run belongs to exactly one, so the per-triple counts add up.
    sql = `SELECT ${col} AS value, sum(n) AS runs FROM (
        SELECT org, namespace, agent, uniqMerge(runs) AS n FROM ${facets.table} ${whereSql(conds)}
        GROUP BY org, namespace, agent)
      GROUP BY value ${ORDER}`
  } else if (await runIndexReady(signal)) {
    // Every run has at least one row in the index (its run rows, or its first write); count the keys.
    sql = `SELECT ${col} AS value, uniqExact(org, namespace, agent, run_id) AS runs
      FROM ${indexNames().runs} ${whereSql(conds)}
      GROUP BY value ${ORDER}`
  } else {
    const filter = { org: params.org as string | undefined, namespace: params.namespace as string | undefined, agent: params.agent as string | undefined }
    const prefix = conds.filter((c) => c.startsWith('startsWith('))
    sql = `SELECT ${col} AS value, count() AS runs FROM (${filteredRunsSql(filter)}) ${whereSql(prefix)}
      GROUP BY value ${ORDER}`
  }
  return { values: await queryRows(sql, params, rowSchema, { signal }) }
}
