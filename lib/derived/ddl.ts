/**
 * The tables of the console's derived structures (see names.ts). Plain tables only: nothing here
 * reads an agent's insert. `derive.ts` recomputes the runs a batch finds changed, whole, so every
 * table is either replaced per run (ReplacingMergeTree: the newest batch's row wins) or merged with
 * functions that a repeated row cannot change (min, max, argMax, uniq). The one running total,
 * `sums`, is added to once per batch under an insert deduplication token, so a retried batch
 * cannot add its difference twice.
 */
import type { DdlObject } from '../loom/tables'
import { STATE_TYPE, TIME } from './rollup-state'
import { deriveNames, runFacetsNames, runIndexNames, runRollupNames } from './names'

const IDENTITY_OF_RUN = `
    org String,
    namespace String,
    run_id String,
    agent String,
    user_id String,
    session_id String`

/** How long a batch's dirty runs and staged states are kept (far longer than any retry). */
const BOOKKEEPING_TTL = 'INTERVAL 1 DAY'

export function derivedTables(runsDatabase: string): DdlObject[] {
  const ix = runIndexNames(runsDatabase)
  const f = runFacetsNames(runsDatabase)
  const r = runRollupNames(runsDatabase)
  const d = deriveNames(runsDatabase)
  const table = (name: string, what: string, sql: string): DdlObject => ({ name, kind: 'table', what: `table: ${what}`, sql })
  return [
    table(
      ix.runs,
      'the runs list in list order (started_at, org, namespace, agent, run_id): each run\'s latest run row, and the first working-memory write of each run without one',
      `CREATE TABLE IF NOT EXISTS ${ix.runs} (
    org String,
    namespace String,
    agent String,
    run_id String,
    user_id String,
    session_id String,
    goal String,
    status LowCardinality(String),
    attempt UInt32,
    started_at DateTime64(3, 'UTC'),
    completed_at Nullable(DateTime64(3, 'UTC')),
    duration_ms Nullable(UInt64),
    turns UInt32,
    cost_usd Float64,
    version UInt64,
    kind UInt8
) ENGINE = ReplacingMergeTree(version)
ORDER BY (started_at, org, namespace, agent, run_id)
SETTINGS index_granularity = 1024`,
    ),
    table(
      ix.orphans,
      'per run that wrote working memory: first write, newest (user_id, session_id), and whether it has a run row',
      `CREATE TABLE IF NOT EXISTS ${ix.orphans} (
    org String,
    namespace String,
    agent String,
    run_id String,
    first_at SimpleAggregateFunction(min, DateTime64(3, 'UTC')),
    newest_identity AggregateFunction(argMax, Tuple(String, String), Tuple(DateTime64(3, 'UTC'), UInt64)),
    has_run_row SimpleAggregateFunction(max, UInt8)
) ENGINE = AggregatingMergeTree
ORDER BY (org, namespace, agent, run_id)
SETTINGS index_granularity = 256`,
    ),
    table(
      ix.checkpoints,
      "the latest 'checkpoint' block of each run and (user_id, session_id), for the list's checkpoint column",
      `CREATE TABLE IF NOT EXISTS ${ix.checkpoints} (
    org String,
    namespace String,
    agent String,
    run_id String,
    user_id String,
    session_id String,
    version UInt64,
    updated_at DateTime64(3, 'UTC'),
    chars UInt32,
    char_limit UInt32,
    is_deleted UInt8
) ENGINE = ReplacingMergeTree(version)
ORDER BY (org, namespace, agent, run_id, user_id, session_id)
SETTINGS index_granularity = 128, min_compress_block_size = 4096, max_compress_block_size = 16384`,
    ),
    table(
      ix.sessions,
      'the (agent, user_id, session_id) under which each run wrote working memory, so run-scoped reads bind the whole sorting-key prefix',
      `CREATE TABLE IF NOT EXISTS ${ix.sessions} (${IDENTITY_OF_RUN}
) ENGINE = ReplacingMergeTree
ORDER BY (org, namespace, run_id, agent, user_id, session_id)
SETTINGS index_granularity = 256`,
    ),
    table(
      ix.flags,
      "per run, what its flags are computed from (run state, write counts, newest checkpoint, checkpoint write times and processes); the newest batch's row replaces the run's earlier ones",
      `CREATE TABLE IF NOT EXISTS ${ix.flags} (
    org String,
    namespace String,
    agent String,
    run_id String,
    seq UInt64,
    run_state AggregateFunction(argMax, Tuple(String, UInt32, String, String, ${TIME}), UInt64),
    wm_rows SimpleAggregateFunction(sum, UInt64),
    wm_keys AggregateFunction(uniqExact, UInt64),
    last_write SimpleAggregateFunction(max, ${TIME}),
    checkpoint_latest AggregateFunction(argMax, Tuple(UInt32, UInt32, UInt8, String), Tuple(${TIME}, UInt64)),
    checkpoint_writes AggregateFunction(groupArray, Tuple(UInt64, ${TIME}, UInt64, UInt8, UInt64))
) ENGINE = ReplacingMergeTree(seq)
ORDER BY (org, namespace, agent, run_id)
SETTINGS index_granularity = 256`,
    ),
    table(
      ix.owners,
      'per (org, namespace, run_id), the identities that wrote a checkpoint or own a run row, for near misses',
      `CREATE TABLE IF NOT EXISTS ${ix.owners} (${IDENTITY_OF_RUN},
    has_checkpoint SimpleAggregateFunction(max, UInt8),
    run_identity SimpleAggregateFunction(max, UInt8)
) ENGINE = AggregatingMergeTree
ORDER BY (org, namespace, run_id, agent, user_id, session_id)
SETTINGS index_granularity = 256`,
    ),
    table(
      ix.candidates,
      'the few runs a near_limit, missing_blob, tie or near_miss filter has to check',
      `CREATE TABLE IF NOT EXISTS ${ix.candidates} (
    kind LowCardinality(String),${IDENTITY_OF_RUN},
    detail String,
    seen_at ${TIME}
) ENGINE = ReplacingMergeTree(seen_at)
ORDER BY (kind, org, namespace, run_id, agent, user_id, session_id, detail)`,
    ),
    table(
      ix.triage,
      "per run that carries a flag, names a blob in its checkpoint or is running (and every run once listed here): its list status and start, the flags decided when it was derived (all but missing_blob and stalled), its checkpoint's blob_key and when it counts as stalled; the newest batch's row replaces the run's earlier ones",
      `CREATE TABLE IF NOT EXISTS ${ix.triage} (
    org String,
    namespace String,
    agent String,
    run_id String,
    seq UInt64,
    status LowCardinality(String),
    started_at ${TIME},
    flags Array(LowCardinality(String)),
    blob_key String,
    stall_at_ms Float64
) ENGINE = ReplacingMergeTree(seq)
ORDER BY (org, namespace, agent, run_id)
SETTINGS index_granularity = 1024`,
    ),
    table(
      f.table,
      'how many runs each (org, namespace, agent) holds, for the suggestions of the runs filters',
      `CREATE TABLE IF NOT EXISTS ${f.table} (
    org String,
    namespace String,
    agent String,
    runs AggregateFunction(uniq, String)
) ENGINE = AggregatingMergeTree
ORDER BY (org, namespace, agent)
SETTINGS index_granularity = 1024`,
    ),
    table(
      r.state,
      'per run, what it counts as in the runs-page analytics (latest run row, first write, newest checkpoint)',
      `CREATE TABLE IF NOT EXISTS ${r.state} (
    org String,
    namespace String,
    agent String,
    run_id String,
    seq UInt64,
    st ${STATE_TYPE},
    version UInt64,
    has_row UInt8
) ENGINE = ReplacingMergeTree(seq)
ORDER BY (org, namespace, agent, run_id)
SETTINGS index_granularity = 64`,
    ),
    table(
      r.changes,
      "each batch's runs with their previous and next analytics state, from which the batch adds the difference to the sums (kept a day)",
      `CREATE TABLE IF NOT EXISTS ${r.changes} (
    seq UInt64,
    org String,
    namespace String,
    agent String,
    run_id String,
    prev ${STATE_TYPE},
    next ${STATE_TYPE},
    staged_at ${TIME}
) ENGINE = ReplacingMergeTree(staged_at)
ORDER BY (seq, org, namespace, agent, run_id)
TTL toDateTime(staged_at) + ${BOOKKEEPING_TTL}`,
    ),
    table(
      r.sums,
      'run counts for the runs-page analytics (started per hour and status, resumed per day, checkpoint size buckets) overall, per org, per namespace and per agent',
      `CREATE TABLE IF NOT EXISTS ${r.sums} (
    level UInt8,
    org String,
    namespace String,
    agent String,
    kind UInt8,
    at DateTime('UTC'),
    status LowCardinality(String),
    bucket Int8,
    runs Int64,
    extra Int64
) ENGINE = SummingMergeTree((runs, extra))
ORDER BY (level, org, namespace, agent, kind, at, status, bucket)
SETTINGS index_granularity = 1024, non_replicated_deduplication_window = 1000`,
    ),
    table(
      r.top,
      'every run row\'s cost and duration in value order, for the costliest and slowest runs',
      `CREATE TABLE IF NOT EXISTS ${r.top} (
    metric LowCardinality(String),
    scope LowCardinality(String),
    value Float64,
    neg_value Float64,
    org String,
    namespace String,
    agent String,
    run_id String,
    version UInt64,
    goal String,
    status LowCardinality(String),
    started_at ${TIME},
    last_begin_at ${TIME},
    completed_at Nullable(${TIME}),
    duration_ms Nullable(UInt64),
    cost_usd Float64,
    attempt UInt32
) ENGINE = ReplacingMergeTree
ORDER BY (metric, scope, neg_value, org, namespace, agent, run_id, version)
SETTINGS index_granularity = 256`,
    ),
    table(
      d.log,
      'one row per step of each derivation batch: the block watermarks it covers and how far it got (a failed batch is resumed from here)',
      `CREATE TABLE IF NOT EXISTS ${d.log} (
    seq UInt64,
    step UInt8,
    history_from UInt64,
    history_to UInt64,
    runs_from UInt64,
    runs_to UInt64,
    runs_count UInt64,
    at ${TIME},
    elapsed_ms UInt64
) ENGINE = ReplacingMergeTree(at)
ORDER BY (seq, step)
TTL toDateTime(at) + INTERVAL 7 DAY`,
    ),
    table(
      d.dirty,
      'the runs each derivation batch recomputes (kept a day)',
      `CREATE TABLE IF NOT EXISTS ${d.dirty} (
    seq UInt64,
    org String,
    namespace String,
    agent String,
    run_id String,
    at ${TIME} DEFAULT now64(3)
) ENGINE = ReplacingMergeTree
ORDER BY (seq, org, namespace, agent, run_id)
TTL toDateTime(at) + ${BOOKKEEPING_TTL}`,
    ),
    table(
      d.rows,
      "every working-memory write of each batch's runs, read once for all the batch's statements (kept a day)",
      `CREATE TABLE IF NOT EXISTS ${d.rows} (
    seq UInt64,
    org String,
    namespace String,
    agent String,
    user_id String,
    session_id String,
    run_id String,
    block_key String,
    content String,
    char_limit UInt32,
    version UInt64,
    is_deleted UInt8,
    actor String,
    source_trace String,
    updated_at ${TIME},
    staged_at ${TIME} DEFAULT now64(3)
) ENGINE = MergeTree
ORDER BY (seq, org, namespace, agent, run_id)
TTL toDateTime(staged_at) + ${BOOKKEEPING_TTL}
SETTINGS non_replicated_deduplication_window = 1000`,
    ),
  ]
}

/** The marker: created once the first derivation is complete. */
export function derivedMetaDdl(runsDatabase: string): DdlObject {
  const meta = runIndexNames(runsDatabase).meta
  return {
    name: meta,
    kind: 'table',
    what: 'table: marks the derived tables as installed and derived once (created last); its name carries the design version',
    sql: `CREATE TABLE IF NOT EXISTS ${meta} (
    installed_at DateTime64(3, 'UTC'),
    schema_version UInt32,
    note String
) ENGINE = MergeTree
ORDER BY installed_at`,
  }
}
