/**
 * The run facets: one small aggregated table of how many runs each (org, namespace, agent) holds,
 * for the suggestions of the runs page's org / namespace / agent boxes (`GET /api/runs/facets`).
 *
 * A run counts under its (org, namespace, agent) once whether it has a `loom.runs` row, working-memory
 * rows, or both: both sources feed the same `uniq(run_id)` state, which absorbs the overlap. The table
 * holds one row per triple once merged (a few thousand rows where the run index holds millions), so a
 * prefix lookup reads it whole in well under a granule's worth of work per thousand agents.
 *
 * Fed from Loom's own tables, not from the run index, so rebuilding the index never has to drop
 * these views first. Part of the dashboard's database: created next to the run index, dropped and
 * rebuilt with it, never touching Loom's tables.
 */
import { inDatabase, source, type DdlObject } from './tables'
import type { TableNames } from '../tables/table-keys'

export type RunFacetsNames = {
  /** Per (org, namespace, agent): uniq(run_id) state. */
  table: string
  runsView: string
  workingMemoryView: string
  /** Created last, once the backfill is done: the table is only read when this exists. */
  meta: string
}

export const RUN_FACETS_SCHEMA_VERSION = 1

export function runFacetsNames(runsDatabase: string): RunFacetsNames {
  return inDatabase(runsDatabase, {
    table: 'run_index_facets',
    runsView: 'run_index_facets_runs_mv',
    workingMemoryView: 'run_index_facets_wm_mv',
    meta: `run_index_facets_meta_v${RUN_FACETS_SCHEMA_VERSION}`,
  })
}

export type RunFacetsDdl = {
  /** The table first, then the views that feed it. */
  objects: DdlObject[]
  backfill: { name: string; sql: string }[]
  meta: string
  /** Everything an earlier or unfinished install may have left, views first. */
  drop: string[]
}

const perTriple = (from: string) => `SELECT org, namespace, agent, uniqState(run_id) AS runs
FROM ${from}
GROUP BY org, namespace, agent`

/**
 * Views are created before the backfill: a run written meanwhile lands in both, which the uniq
 * state absorbs (the same run_id twice is one run).
 */
export function runFacetsDdl(t: TableNames, f: RunFacetsNames): RunFacetsDdl {
  const runsTable = source(t.runs)
  const wm = source(t.workingMemory)
  return {
    objects: [
      {
        name: f.table,
        kind: 'table',
        what: 'table: how many runs each (org, namespace, agent) holds, for the suggestions of the runs filters',
        sql: `CREATE TABLE IF NOT EXISTS ${f.table} (
    org String,
    namespace String,
    agent String,
    runs AggregateFunction(uniq, String)
) ENGINE = AggregatingMergeTree
ORDER BY (org, namespace, agent)
SETTINGS index_granularity = 1024`,
      },
      {
        name: f.runsView,
        kind: 'view',
        what: `materialized view: counts the run of each new ${t.runs} row in ${f.table}`,
        sql: `CREATE MATERIALIZED VIEW IF NOT EXISTS ${f.runsView} TO ${f.table} AS
${perTriple(runsTable)}`,
      },
      {
        name: f.workingMemoryView,
        kind: 'view',
        what: `materialized view: counts the run of each new ${t.workingMemory} row in ${f.table} (checkpoint-only runs)`,
        sql: `CREATE MATERIALIZED VIEW IF NOT EXISTS ${f.workingMemoryView} TO ${f.table} AS
${perTriple(wm)}`,
      },
    ],
    backfill: [
      { name: `${f.table} from ${t.runs}`, sql: `INSERT INTO ${f.table} ${perTriple(runsTable)}` },
      { name: `${f.table} from ${t.workingMemory}`, sql: `INSERT INTO ${f.table} ${perTriple(wm)}` },
    ],
    meta: `CREATE TABLE IF NOT EXISTS ${f.meta} (installed_at DateTime64(3, 'UTC')) ENGINE = MergeTree ORDER BY installed_at`,
    drop: [f.meta, f.runsView, f.workingMemoryView, f.table],
  }
}
