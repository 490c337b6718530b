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

/** A run's key in the order most derived tables store it, and the sorting key in that order. */
const RUN_KEY = `
    org String,
    namespace String,
    agent String,
    run_id String`
const BY_RUN = 'ORDER BY (org, namespace, agent, run_id)'
const BY_SEQ_AND_RUN = 'ORDER BY (seq, org, namespace, agent, run_id)'
const BY_IDENTITY = 'ORDER BY (org, namespace, run_id, agent, user_id, session_id)'

/** How long a batch's dirty runs and staged states are kept (far longer than any retry). */
const BOOKKEEPING_TTL = 'INTERVAL 1 DAY'

/** A plain table: its columns (each on its own line, after the opening parenthesis), then the engine and the clauses after it, a line each. */
function table(name: string, what: string, columns: string, ...engine: string[]): DdlObject {
  return {
    name,
    kind: 'table',
    what: `table: ${what}`,
    sql: `CREATE TABLE IF NOT EXISTS ${name} (${columns}\n) ENGINE = ${engine.join('\n')}`,
  }
}

export function derivedTables(runsDatabase: string): DdlObject[] {
  const ix = runIndexNames(runsDatabase)
  const f = runFacetsNames(runsDatabase)
  const r = runRollupNames(runsDatabase)
  const d = deriveNames(runsDatabase)
  return [
    table(
      ix.runs,
      "the runs list in list order (started_at, org, namespace, agent, run_id): each run's latest run row, and the first working-memory write of each run without one",
      `${RUN_KEY},
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
    kind UInt8`,
      'ReplacingMergeTree(version)',
      'ORDER BY (started_at, org, namespace, agent, run_id)',
      'SETTINGS index_granularity = 1024',
    ),
    table(
      ix.orphans,
      'per run that wrote working memory: first write, newest (user_id, session_id), and whether it has a run row',
      `${RUN_KEY},
    first_at SimpleAggregateFunction(min, DateTime64(3, 'UTC')),
    newest_identity AggregateFunction(argMax, Tuple(String, String), Tuple(DateTime64(3, 'UTC'), UInt64)),
    has_run_row SimpleAggregateFunction(max, UInt8)`,
      'AggregatingMergeTree',
      BY_RUN,
      'SETTINGS index_granularity = 256',
    ),
    table(
      ix.checkpoints,
      "the latest 'checkpoint' block of each run and (user_id, session_id), for the list's checkpoint column",
      `${RUN_KEY},
    user_id String,
    session_id String,
    version UInt64,
    updated_at DateTime64(3, 'UTC'),
    chars UInt32,
    char_limit UInt32,
    is_deleted UInt8`,
      'ReplacingMergeTree(version)',
      'ORDER BY (org, namespace, agent, run_id, user_id, session_id)',
      'SETTINGS index_granularity = 128, min_compress_block_size = 4096, max_compress_block_size = 16384',
    ),
    table(
      ix.sessions,
      'the (agent, user_id, session_id) under which each run wrote working memory, so run-scoped reads bind the whole sorting-key prefix',
      IDENTITY_OF_RUN,
      'ReplacingMergeTree',
      BY_IDENTITY,
      'SETTINGS index_granularity = 256',
    ),
    table(
      ix.flags,
      "per run, what its flags are computed from (run state, write counts, newest checkpoint, checkpoint write times and processes); the newest batch's row replaces the run's earlier ones",
      `${RUN_KEY},
    seq UInt64,
    run_state AggregateFunction(argMax, Tuple(String, UInt32, String, String, ${TIME}), UInt64),
    wm_rows SimpleAggregateFunction(sum, UInt64),
    wm_keys AggregateFunction(uniqExact, UInt64),
    last_write SimpleAggregateFunction(max, ${TIME}),
    checkpoint_latest AggregateFunction(argMax, Tuple(UInt32, UInt32, UInt8, String), Tuple(${TIME}, UInt64)),
    checkpoint_writes AggregateFunction(groupArray, Tuple(UInt64, ${TIME}, UInt64, UInt8, UInt64))`,
      'ReplacingMergeTree(seq)',
      BY_RUN,
      'SETTINGS index_granularity = 256',
    ),
    table(
      ix.owners,
      'per (org, namespace, run_id), the identities that wrote a checkpoint or own a run row, for near misses',
      `${IDENTITY_OF_RUN},
    has_checkpoint SimpleAggregateFunction(max, UInt8),
    run_identity SimpleAggregateFunction(max, UInt8)`,
      'AggregatingMergeTree',
      BY_IDENTITY,
      'SETTINGS index_granularity = 256',
    ),
    table(
      ix.candidates,
      'the few runs a near_limit, missing_blob, tie or near_miss filter has to check',
      `
    kind LowCardinality(String),${IDENTITY_OF_RUN},
    detail String,
    seen_at ${TIME}`,
      'ReplacingMergeTree(seen_at)',
      'ORDER BY (kind, org, namespace, run_id, agent, user_id, session_id, detail)',
    ),
    table(
      ix.triage,
      "per run that carries a flag, names a blob in its checkpoint or is running (and every run once listed here): its list status and start, the flags decided when it was derived (all but missing_blob and stalled), its checkpoint's blob_key and when it counts as stalled; the newest batch's row replaces the run's earlier ones",
      `${RUN_KEY},
    seq UInt64,
    status LowCardinality(String),
    started_at ${TIME},
    flags Array(LowCardinality(String)),
    blob_key String,
    stall_at_ms Float64`,
      'ReplacingMergeTree(seq)',
      BY_RUN,
      'SETTINGS index_granularity = 1024',
    ),
    table(
      f.table,
      'how many runs each (org, namespace, agent) holds, for the suggestions of the runs filters',
      `
    org String,
    namespace String,
    agent String,
    runs AggregateFunction(uniq, String)`,
      'AggregatingMergeTree',
      'ORDER BY (org, namespace, agent)',
      'SETTINGS index_granularity = 1024',
    ),
    table(
      r.state,
      'per run, what it counts as in the runs-page analytics (latest run row, first write, newest checkpoint)',
      `${RUN_KEY},
    seq UInt64,
    st ${STATE_TYPE},
    version UInt64,
    has_row UInt8`,
      'ReplacingMergeTree(seq)',
      BY_RUN,
      'SETTINGS index_granularity = 64',
    ),
    table(
      r.changes,
      "each batch's runs with their previous and next analytics state, from which the batch adds the difference to the sums (kept a day)",
      `
    seq UInt64,${RUN_KEY},
    prev ${STATE_TYPE},
    next ${STATE_TYPE},
    staged_at ${TIME}`,
      'ReplacingMergeTree(staged_at)',
      BY_SEQ_AND_RUN,
      `TTL toDateTime(staged_at) + ${BOOKKEEPING_TTL}`,
    ),
    table(
      r.sums,
      'run counts for the runs-page analytics (started per hour and status, resumed per day, checkpoint size buckets) overall, per org, per namespace and per agent',
      `
    level UInt8,
    org String,
    namespace String,
    agent String,
    kind UInt8,
    at DateTime('UTC'),
    status LowCardinality(String),
    bucket Int8,
    runs Int64,
    extra Int64`,
      'SummingMergeTree((runs, extra))',
      'ORDER BY (level, org, namespace, agent, kind, at, status, bucket)',
      'SETTINGS index_granularity = 1024, non_replicated_deduplication_window = 1000',
    ),
    table(
      r.top,
      "every run row's cost and duration in value order, for the costliest and slowest runs",
      `
    metric LowCardinality(String),
    scope LowCardinality(String),
    value Float64,
    neg_value Float64,${RUN_KEY},
    version UInt64,
    goal String,
    status LowCardinality(String),
    started_at ${TIME},
    last_begin_at ${TIME},
    completed_at Nullable(${TIME}),
    duration_ms Nullable(UInt64),
    cost_usd Float64,
    attempt UInt32`,
      'ReplacingMergeTree',
      'ORDER BY (metric, scope, neg_value, org, namespace, agent, run_id, version)',
      'SETTINGS index_granularity = 256',
    ),
    table(
      d.log,
      'one row per step of each derivation batch: the block watermarks it covers and how far it got (a failed batch is resumed from here)',
      `
    seq UInt64,
    step UInt8,
    history_from UInt64,
    history_to UInt64,
    runs_from UInt64,
    runs_to UInt64,
    runs_count UInt64,
    at ${TIME},
    elapsed_ms UInt64`,
      'ReplacingMergeTree(at)',
      'ORDER BY (seq, step)',
      'TTL toDateTime(at) + INTERVAL 7 DAY',
    ),
    table(
      d.dirty,
      'the runs each derivation batch recomputes (kept a day)',
      `
    seq UInt64,${RUN_KEY},
    at ${TIME} DEFAULT now64(3)`,
      'ReplacingMergeTree',
      BY_SEQ_AND_RUN,
      `TTL toDateTime(at) + ${BOOKKEEPING_TTL}`,
    ),
    table(
      d.rows,
      "every working-memory write of each batch's runs, read once for all the batch's statements (kept a day)",
      `
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
    staged_at ${TIME} DEFAULT now64(3)`,
      'MergeTree',
      BY_SEQ_AND_RUN,
      `TTL toDateTime(staged_at) + ${BOOKKEEPING_TTL}`,
      'SETTINGS non_replicated_deduplication_window = 1000',
    ),
  ]
}

/** The marker: created once the first derivation is complete. */
export function derivedMetaDdl(runsDatabase: string): DdlObject {
  const meta = runIndexNames(runsDatabase).meta
  return table(
    meta,
    'marks the derived tables as installed and derived once (created last); its name carries the design version',
    `
    installed_at DateTime64(3, 'UTC'),
    schema_version UInt32,
    note String`,
    'MergeTree',
    'ORDER BY installed_at',
  )
}
