/**
 * The run rollup: the runs-page analytics kept as running totals, so the charts of a million runs
 * read a few thousand rows instead of every run.
 *
 * - `state`: one row per run (org, namespace, agent, run_id), what the run contributes to the charts:
 *   its latest run row (version, status, started_at, attempt, last begin), its first working-memory
 *   write (which dates a checkpoint-only run), and its newest checkpoint (time, version, size bucket).
 *   `version` and `has_row` are also kept as columns of their own, for lookups that need only them.
 * - `changes` (Null engine): on every insert into `loom.runs` or `loom.working_memory`, a view reads
 *   the state of the inserted runs, combines it with the insert, and writes (previous, next) here.
 *   Two views of `changes` then store the next state and add the difference of the two states'
 *   contributions to `sums`: -1 for what the run counted as before, +1 for what it counts as now.
 *   The state is read before it is written, because the views that write it are fed by `changes`,
 *   which only receives rows once the read is done.
 * - `sums`: SummingMergeTree of run counts at four levels (everything; per org; per org and
 *   namespace; per org, namespace and agent) by kind: runs started per hour and status, resumed
 *   runs per day of their latest begin and status, runs per checkpoint size bucket and status.
 * - `top`: every run row's cost and duration, by status ('' for any), sorted by the value's negation (reading a key in
 *   ascending order stops after the rows asked for; a descending read scans the whole metric), for
 *   the costliest and slowest runs over all runs (a value is current when its version is the run's
 *   version in `state`).
 *
 * What a run contributes mirrors the direct queries of lib/queries/analytics.ts: a run row's latest
 * version (the highest version; the later insert on a tie, as FINAL does), or, for a run with
 * working memory and no run row, status "unknown" from its first write; the newest checkpoint by
 * (updated_at, version). Reading a state and writing the next one are two steps: two inserts for the
 * same run that race on a ClickHouse server can both retract the same previous state. The embedded
 * engine runs one statement at a time, so it cannot race; on a server, re-running the install
 * rebuilds the rollup from the rows (`npm run index:install -- --rebuild-rollup`).
 */
import { inDatabase, source, type DdlObject } from './tables'
import type { TableNames } from '../tables/table-keys'

export type RunRollupNames = {
  state: string
  changes: string
  sums: string
  top: string
  runsView: string
  wmView: string
  stateView: string
  sumsView: string
  topView: string
  /** Created last, once the backfill is done: the rollup is only read when this exists. */
  meta: string
}

export const RUN_ROLLUP_SCHEMA_VERSION = 1

export function runRollupNames(runsDatabase: string): RunRollupNames {
  return inDatabase(runsDatabase, {
    state: 'run_index_rollup_state',
    changes: 'run_index_rollup_changes',
    sums: 'run_index_rollup_sums',
    top: 'run_index_rollup_top',
    runsView: 'run_index_rollup_runs_mv',
    wmView: 'run_index_rollup_wm_mv',
    stateView: 'run_index_rollup_state_mv',
    sumsView: 'run_index_rollup_sums_mv',
    topView: 'run_index_rollup_top_mv',
    meta: `run_index_rollup_meta_v${RUN_ROLLUP_SCHEMA_VERSION}`,
  })
}

/** Kinds of `sums` rows. */
export const ROLLUP_KIND = { started: 1, resumed: 2, size: 3 } as const
/** Levels of `sums` rows: which of org, namespace and agent they keep. */
export const ROLLUP_LEVEL = { all: 0, org: 1, namespace: 2, agent: 3 } as const
/** `ck_bucket` of a run that never wrote a checkpoint. */
const NO_CHECKPOINT = -2

const TIME = "DateTime64(3, 'UTC')"
const NO_TIME = "toDateTime64('2299-12-31 23:59:59.999', 3, 'UTC')"
const EPOCH = "toDateTime64(0, 3, 'UTC')"
const RUN_KEY = '(org, namespace, agent, run_id)'

const STATE_TYPE = `Tuple(has_row UInt8, version UInt64, status String, started_at ${TIME}, attempt UInt32,
    last_begin_at ${TIME}, first_wm_at ${TIME}, ck_at ${TIME}, ck_version UInt64, ck_bucket Int8)`
/** The state type as a string literal, for CAST. */
const STATE_TYPE_TEXT = `'${STATE_TYPE.replace(/\s+/g, ' ').replaceAll("'", "\\'")}'`
/** The state tuple from its ten elements. */
const stateOf = (parts: string[]) => `CAST((${parts.join(', ')}), ${STATE_TYPE_TEXT})`
const EMPTY_STATE = stateOf(['0', '0', "''", EPOCH, '0', EPOCH, NO_TIME, EPOCH, '0', String(NO_CHECKPOINT)])

/**
 * Size bucket of a checkpoint row: 0..9 by 10 % of char_limit, 10 over the limit, -1 a tombstone
 * (the buckets of the analytics' size chart).
 */
export const checkpointBucketSql = (chars: string) =>
  `toInt8(multiIf(is_deleted = 1, -1, char_limit = 0 OR ${chars} > char_limit, 10, least(intDiv(${chars} * 10, char_limit), 9)))`

/** What a state counts as in `sums`: (kind, at, status, bucket, runs, extra attempts). */
function contributions(s: string): string {
  const el = (name: string) => `tupleElement(${s}, '${name}')`
  const hasRow = `${el('has_row')} = 1`
  const status = `if(${hasRow}, ${el('status')}, 'unknown')`
  const started = `if(${hasRow}, ${el('started_at')}, ${el('first_wm_at')})`
  const row = (kind: number, at: string, bucket: string, extra: string) =>
    `(toUInt8(${kind}), toDateTime(${at}, 'UTC'), ${status}, toInt8(${bucket}), toInt64(1), toInt64(${extra}))`
  return `if(NOT ${hasRow} AND ${el('first_wm_at')} = ${NO_TIME}, [], arrayConcat(
      [${row(ROLLUP_KIND.started, `toStartOfHour(${started})`, '0', '0')}],
      if(${hasRow} AND ${el('attempt')} > 1, [${row(ROLLUP_KIND.resumed, `toStartOfDay(${el('last_begin_at')})`, '0', `${el('attempt')} - 1`)}], []),
      if(${el('ck_bucket')} != ${NO_CHECKPOINT}, [${row(ROLLUP_KIND.size, '0', el('ck_bucket'), '0')}], [])))`
}

/** The current state of the runs of an insert, from `state` (`keys`: a SELECT of their run keys). */
function previousStates(r: RunRollupNames, keys: string) {
  return `SELECT org, namespace, agent, run_id, argMax(st, seq) AS last_st, max(seq) AS last_seq, toUInt8(1) AS found
      FROM ${r.state} WHERE ${RUN_KEY} IN (${keys}) GROUP BY org, namespace, agent, run_id`
}

/** The latest run row of each run in `from`. */
const latestRunRows = (from: string) => `SELECT org, namespace, agent, run_id,
        argMax((version, toString(status), started_at, attempt, last_begin_at), version) AS r
      FROM ${from} GROUP BY org, namespace, agent, run_id`

/** Per run in `from`: its first working-memory write, and its newest checkpoint (time, version, bucket). */
const wmSummaries = (from: string) => `SELECT org, namespace, agent, run_id, min(updated_at) AS first_at,
        countIf(block_key = 'checkpoint') > 0 AS has_ck,
        argMaxIf((updated_at, version, ${checkpointBucketSql('lengthUTF8(content)')}), (updated_at, version), block_key = 'checkpoint') AS ck
      FROM ${from} GROUP BY org, namespace, agent, run_id`

const p = (name: string) => `tupleElement(prev, '${name}')`
const runParts = [1, 2, 3, 4, 5].map((i) => `tupleElement(b.r, ${i})`)
const keepWm = ['first_wm_at', 'ck_at', 'ck_version', 'ck_bucket'].map(p)
const keepRun = ['has_row', 'version', 'status', 'started_at', 'attempt', 'last_begin_at'].map(p)

export type RunRollupDdl = {
  objects: DdlObject[]
  backfill: { name: string; sql: string }[]
  meta: string
  drop: string[]
}

export function runRollupDdl(t: TableNames, r: RunRollupNames, ix: { orphans: string; checkpoints: string }): RunRollupDdl {
  const runsTable = source(t.runs)
  const wm = source(t.workingMemory)
  const keysOf = (from: string) => `SELECT org, namespace, agent, run_id FROM ${from}`
  const header = `b.org AS org, b.namespace AS namespace, b.agent AS agent, b.run_id AS run_id,
    if(s.found = 1, s.last_seq, 0) + 1 AS seq, if(s.found = 1, s.last_st, ${EMPTY_STATE}) AS prev`
  // A run row replaces the state's unless the state holds a higher version (an older row arriving late).
  const runsNext = `if(${p('has_row')} = 1 AND ${p('version')} > tupleElement(b.r, 1), prev,
      ${stateOf(['1', ...runParts, ...keepWm])}) AS next`
  const ck = (i: number) => `tupleElement(b.ck, ${i})`
  const newerCk = `b.has_ck AND (${ck(1)}, ${ck(2)}) >= (${p('ck_at')}, ${p('ck_version')})`
  const wmNext = `${stateOf([
    ...keepRun,
    `least(${p('first_wm_at')}, b.first_at)`,
    `if(${newerCk}, ${ck(1)}, ${p('ck_at')})`,
    `if(${newerCk}, ${ck(2)}, ${p('ck_version')})`,
    `if(${newerCk}, ${ck(3)}, ${p('ck_bucket')})`,
  ])} AS next`
  const changesSelect = (summaries: string, keys: string, next: string) => `SELECT ${header},
    ${next}
FROM (${summaries}) AS b
LEFT JOIN (${previousStates(r, keys)}) AS s USING (org, namespace, agent, run_id)`

  const changesView = (name: string, from: string, select: string): DdlObject => ({
    name,
    kind: 'view',
    source: from,
    what: `materialized view: on each ${from} insert, reads the runs' state in ${r.state} and passes previous and next state to ${r.changes}`,
    sql: `CREATE MATERIALIZED VIEW IF NOT EXISTS ${name} TO ${r.changes} AS\n${select}`,
  })

  const sumsSelect = `SELECT level,
    if(level >= 1, o, '') AS org, if(level >= 2, n, '') AS namespace, if(level = 3, a, '') AS agent,
    tupleElement(d.1, 1) AS kind, tupleElement(d.1, 2) AS at, tupleElement(d.1, 3) AS status, tupleElement(d.1, 4) AS bucket,
    tupleElement(d.1, 5) * d.2 AS runs, tupleElement(d.1, 6) * d.2 AS extra
FROM (
    SELECT org AS o, namespace AS n, agent AS a, ${contributions('prev')} AS was, ${contributions('next')} AS cur
    FROM ${r.changes}
)
ARRAY JOIN arrayConcat(
    arrayMap(c -> (c, toInt64(-1)), arrayFilter(c -> NOT has(cur, c), was)),
    arrayMap(c -> (c, toInt64(1)), arrayFilter(c -> NOT has(was, c), cur))) AS d
ARRAY JOIN [0, 1, 2, 3] AS level`

  // Each value twice: under scope '' (any status) and under its row's status, so the top runs of one
  // status are a key range too.
  const topSelect = (from: string) => `SELECT m.1 AS metric, scope, m.2 AS value, -m.2 AS neg_value, org, namespace, agent, run_id, version, goal,
    toString(status) AS status, started_at, last_begin_at, completed_at, duration_ms, cost_usd, attempt
FROM ${from}
ARRAY JOIN arrayConcat(if(cost_usd > 0, [('cost', cost_usd)], []),
    if(duration_ms IS NULL, [], [('duration', toFloat64(assumeNotNull(duration_ms)))])) AS m
ARRAY JOIN ['', toString(status)] AS scope`

  const objects: DdlObject[] = [
    {
      name: r.state,
      kind: 'table',
      what: 'table: per run, what it counts as in the runs-page analytics (latest run row, first write, newest checkpoint)',
      sql: `CREATE TABLE IF NOT EXISTS ${r.state} (
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
    },
    {
      name: r.changes,
      kind: 'table',
      what: "table: each insert's runs with their previous and next analytics state, passed on to the views that store the state and the sums (Null engine: keeps nothing)",
      sql: `CREATE TABLE IF NOT EXISTS ${r.changes} (
    org String,
    namespace String,
    agent String,
    run_id String,
    seq UInt64,
    prev ${STATE_TYPE},
    next ${STATE_TYPE}
) ENGINE = Null`,
    },
    {
      name: r.sums,
      kind: 'table',
      what: 'table: run counts for the runs-page analytics (started per hour and status, resumed per day, checkpoint size buckets) overall, per org, per namespace and per agent',
      sql: `CREATE TABLE IF NOT EXISTS ${r.sums} (
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
SETTINGS index_granularity = 1024`,
    },
    {
      name: r.top,
      kind: 'table',
      what: `table: every ${t.runs} row's cost and duration in value order, for the costliest and slowest runs`,
      sql: `CREATE TABLE IF NOT EXISTS ${r.top} (
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
) ENGINE = MergeTree
ORDER BY (metric, scope, neg_value)
SETTINGS index_granularity = 256`,
    },
    {
      name: r.stateView,
      kind: 'view',
      source: r.changes,
      what: `materialized view: stores each run's next state from ${r.changes} in ${r.state}`,
      sql: `CREATE MATERIALIZED VIEW IF NOT EXISTS ${r.stateView} TO ${r.state} AS
SELECT org, namespace, agent, run_id, seq, next AS st, tupleElement(next, 'version') AS version, tupleElement(next, 'has_row') AS has_row
FROM ${r.changes}`,
    },
    {
      name: r.sumsView,
      kind: 'view',
      source: r.changes,
      what: `materialized view: adds the difference between each run's previous and next state in ${r.changes} to ${r.sums}`,
      sql: `CREATE MATERIALIZED VIEW IF NOT EXISTS ${r.sumsView} TO ${r.sums} AS
${sumsSelect}`,
    },
    changesView(r.runsView, t.runs, changesSelect(latestRunRows(runsTable), keysOf(runsTable), runsNext)),
    changesView(r.wmView, t.workingMemory, changesSelect(wmSummaries(wm), keysOf(wm), wmNext)),
    {
      name: r.topView,
      kind: 'view',
      source: t.runs,
      what: `materialized view: copies each new ${t.runs} row's cost and duration into ${r.top}`,
      sql: `CREATE MATERIALIZED VIEW IF NOT EXISTS ${r.topView} TO ${r.top} AS
${topSelect(runsTable)}`,
    },
  ]

  // The state of every run from the rows there now (the run index's views of working memory, which
  // the direct queries read too), then the sums and the top values from that state.
  const stateBackfill = `INSERT INTO ${r.state}
SELECT org, namespace, agent, run_id, seq, st, tupleElement(st, 'version') AS version, tupleElement(st, 'has_row') AS has_row
FROM (SELECT org, namespace, agent, run_id, toUInt64(1) AS seq,
    ${stateOf([
      'max(has_row)',
      'argMax(version, has_row)',
      'argMax(status, has_row)',
      'argMax(started_at, has_row)',
      'argMax(attempt, has_row)',
      'argMax(last_begin_at, has_row)',
      'min(first_wm_at)',
      'argMax(ck_at, has_ck)',
      'argMax(ck_version, has_ck)',
      `if(max(has_ck) = 1, argMax(ck_bucket, has_ck), ${NO_CHECKPOINT})`,
    ])} AS st
FROM (
    SELECT org, namespace, agent, run_id, toUInt8(1) AS has_row, version, toString(status) AS status, started_at, attempt, last_begin_at,
        ${NO_TIME} AS first_wm_at, toUInt8(0) AS has_ck, ${EPOCH} AS ck_at, toUInt64(0) AS ck_version, toInt8(${NO_CHECKPOINT}) AS ck_bucket
    FROM ${source(t.runs, { final: true })}
    UNION ALL
    SELECT org, namespace, agent, run_id, 0, 0, '', ${EPOCH}, 0, ${EPOCH}, min(first_at), 0, ${EPOCH}, 0, ${NO_CHECKPOINT}
    FROM ${ix.orphans} GROUP BY org, namespace, agent, run_id
    UNION ALL
    SELECT org, namespace, agent, run_id, 0, 0, '', ${EPOCH}, 0, ${EPOCH}, ${NO_TIME}, 1,
        argMax(updated_at, (updated_at, version)), argMax(version, (updated_at, version)),
        argMax(${checkpointBucketSql('chars')}, (updated_at, version))
    FROM ${ix.checkpoints} FINAL GROUP BY org, namespace, agent, run_id
)
GROUP BY org, namespace, agent, run_id)`

  return {
    objects,
    backfill: [
      { name: r.state, sql: stateBackfill },
      {
        name: r.sums,
        sql: `INSERT INTO ${r.sums}
SELECT level, if(level >= 1, o, '') AS org, if(level >= 2, n, '') AS namespace, if(level = 3, a, '') AS agent,
    tupleElement(c, 1) AS kind, tupleElement(c, 2) AS at, tupleElement(c, 3) AS status, tupleElement(c, 4) AS bucket,
    sum(tupleElement(c, 5)) AS runs, sum(tupleElement(c, 6)) AS extra
FROM (SELECT org AS o, namespace AS n, agent AS a, ${contributions('st')} AS cs FROM ${r.state} FINAL)
ARRAY JOIN cs AS c
ARRAY JOIN [0, 1, 2, 3] AS level
GROUP BY level, org, namespace, agent, kind, at, status, bucket`,
      },
      { name: r.top, sql: `INSERT INTO ${r.top}\n${topSelect(source(t.runs, { final: true }))}` },
    ],
    meta: `CREATE TABLE IF NOT EXISTS ${r.meta} (installed_at DateTime64(3, 'UTC')) ENGINE = MergeTree ORDER BY installed_at`,
    drop: [r.meta, r.runsView, r.wmView, r.topView, r.stateView, r.sumsView, r.state, r.changes, r.sums, r.top],
  }
}
