/**
 * Names of the console's derived structures, all in the console's own database: the run index
 * (the runs list in list order, checkpoint-only runs, latest checkpoints, writer identities), the
 * triage tables (flags, owners, candidates), the facets, the analytics rollup, and the derivation's
 * own bookkeeping (log, dirty runs). None of them is fed on an agent's insert: `derive.ts` fills
 * them in batches, off the write path.
 */
import { inDatabase } from '../loom/tables'

/**
 * The version of the derived structures' design. The marker's name carries it: an install that
 * finds no current marker drops what an earlier version left and derives everything again.
 */
export const DERIVED_SCHEMA_VERSION = 8

export type RunIndexNames = {
  /** The runs list in list order: each run's latest `loom.runs` row (kind 0), and the first write of a run without one (kind 1). */
  runs: string
  /** Per run that wrote working memory: first write, newest identity, and whether it has a run row. */
  orphans: string
  /** The latest checkpoint block of each run and (user_id, session_id). */
  checkpoints: string
  /** The (agent, user_id, session_id) under which each run wrote working memory. */
  sessions: string
  /** Created last, once the first derivation is done: the derived tables are only read when this exists. */
  meta: string
} & FlagIndexNames

export type FlagIndexNames = {
  flags: string
  owners: string
  candidates: string
  /** Per run that may carry a problem flag (or is running): its flags as decided when derived, for cohorts. */
  triage: string
}

export type RunFacetsNames = {
  /** Per (org, namespace, agent): uniq(run_id) state. */
  table: string
  /** The same marker as the run index's (one derivation fills both). */
  meta: string
}

export type RunRollupNames = {
  state: string
  /** Each batch's runs with their previous and next analytics state (kept a day, so a retried batch adds the same difference). */
  changes: string
  sums: string
  top: string
  /** The same marker as the run index's. */
  meta: string
}

export type DeriveNames = {
  /** One row per step of each batch: its watermarks and how far it got. */
  log: string
  /** The runs each batch recomputes. */
  dirty: string
  /** Every working-memory write of those runs, read once per batch for all its statements. */
  rows: string
}

const metaName = `run_index_meta_v${DERIVED_SCHEMA_VERSION}`

export function flagIndexNames(runsDatabase: string): FlagIndexNames {
  return inDatabase(runsDatabase, {
    flags: 'run_index_flags',
    owners: 'run_index_owners',
    candidates: 'run_index_candidates',
    triage: 'run_index_triage',
  })
}

export function runIndexNames(runsDatabase: string): RunIndexNames {
  return {
    ...inDatabase(runsDatabase, {
      runs: 'run_index',
      orphans: 'run_index_orphans',
      checkpoints: 'run_index_checkpoints',
      sessions: 'run_index_sessions',
      meta: metaName,
    }),
    ...flagIndexNames(runsDatabase),
  }
}

export function runFacetsNames(runsDatabase: string): RunFacetsNames {
  return inDatabase(runsDatabase, { table: 'run_index_facets', meta: metaName })
}

export function runRollupNames(runsDatabase: string): RunRollupNames {
  return inDatabase(runsDatabase, {
    state: 'run_index_rollup_state',
    changes: 'run_index_rollup_changes',
    sums: 'run_index_rollup_sums',
    top: 'run_index_rollup_top',
    meta: metaName,
  })
}

export function deriveNames(runsDatabase: string): DeriveNames {
  return inDatabase(runsDatabase, {
    log: 'run_index_derive_log',
    dirty: 'run_index_derive_dirty',
    rows: 'run_index_derive_rows',
  })
}

/**
 * Objects earlier versions created that this one no longer has: the materialized views that fed
 * the derived tables on every insert (views first, so no agent insert fires one meanwhile), the
 * tie probe, and the earlier markers. Dropped on upgrade; they were all the console's own.
 */
export function legacyObjects(runsDatabase: string): { views: string[]; tables: string[] } {
  const n = (names: string[]) => names.map((name) => `${runsDatabase}.${name}`)
  return {
    views: n([
      'run_index_mv',
      'run_index_first_write_mv',
      'run_index_orphans_mv',
      'run_index_orphans_runs_mv',
      'run_index_checkpoints_mv',
      'run_index_sessions_mv',
      'run_index_flags_wm_mv',
      'run_index_flags_runs_mv',
      'run_index_owners_wm_mv',
      'run_index_owners_runs_mv',
      'run_index_candidates_wm_mv',
      'run_index_candidates_runs_mv',
      'run_index_tie_probe_mv',
      'run_index_block_versions_mv',
      'run_index_tie_candidates_mv',
      'run_index_facets_runs_mv',
      'run_index_facets_wm_mv',
      'run_index_rollup_runs_mv',
      'run_index_rollup_wm_mv',
      'run_index_rollup_state_mv',
      'run_index_rollup_sums_mv',
      'run_index_rollup_top_mv',
    ]),
    tables: n([
      'run_index_tie_probe',
      'run_index_block_versions',
      'run_index_meta',
      ...Array.from({ length: DERIVED_SCHEMA_VERSION - 2 }, (_, i) => `run_index_meta_v${i + 2}`),
      'run_index_facets_meta_v1',
      'run_index_rollup_meta_v1',
    ]),
  }
}
