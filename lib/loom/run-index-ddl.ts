import { inDatabase, source, type DdlObject } from './tables'
import type { TableNames } from '../tables/table-keys'
import { flagIndexDdl, flagIndexNames, type FlagIndexNames } from './flags-ddl'

/** The run index: the dashboard's own structure for the runs list, in its database. */
export type RunIndexNames = {
  /**
   * The runs list in list order (started_at, org, namespace, agent, run_id): one row per
   * `loom.runs` version (kind 0), and one row at the first working-memory write of a run that
   * had no run row then (kind 1, a checkpoint-only candidate).
   */
  runs: string
  runsView: string
  /** Adds the kind-1 rows: first working-memory write of a run without a run row. */
  firstWriteView: string
  /** Per run without a run row: first write, newest identity, and whether a run row came later. */
  orphans: string
  orphansView: string
  /** Marks an orphan once its run row arrives. */
  orphansRunsView: string
  /** The latest checkpoint block of each run and (user_id, session_id). */
  checkpoints: string
  checkpointsView: string
  /** The (agent, user_id, session_id) under which each run wrote working memory. */
  sessions: string
  sessionsView: string
  /**
   * Created last, once the backfill is done: the index is only read when this exists. Its name
   * carries the schema version: an install that finds no current marker rebuilds the index.
   */
  meta: string
  /** Markers of earlier schema versions (dropped on rebuild). */
  oldMetas: string[]
} & FlagIndexNames

export const RUN_INDEX_SCHEMA_VERSION = 6

export function runIndexNames(runsDatabase: string): RunIndexNames {
  const db = runsDatabase
  return {
    ...inDatabase(db, {
      runs: 'run_index',
      runsView: 'run_index_mv',
      firstWriteView: 'run_index_first_write_mv',
      orphans: 'run_index_orphans',
      orphansView: 'run_index_orphans_mv',
      orphansRunsView: 'run_index_orphans_runs_mv',
      checkpoints: 'run_index_checkpoints',
      checkpointsView: 'run_index_checkpoints_mv',
      sessions: 'run_index_sessions',
      sessionsView: 'run_index_sessions_mv',
      meta: `run_index_meta_v${RUN_INDEX_SCHEMA_VERSION}`,
    }),
    oldMetas: [`${db}.run_index_meta`, ...Array.from({ length: RUN_INDEX_SCHEMA_VERSION - 2 }, (_, i) => `${db}.run_index_meta_v${i + 2}`)],
    ...flagIndexNames(db),
  }
}

const RUN_KEY = '(org, namespace, agent, run_id)'
const NEWEST = '(updated_at, version)'
const NO_TIME = "toDateTime64('2299-12-31 23:59:59.999', 3, 'UTC')"
const EPOCH = "toDateTime64(0, 3, 'UTC')"

export type RunIndexDdl = {
  /** Tables first, then the views that feed them. */
  objects: DdlObject[]
  /** The same list as `objects` (the name earlier versions used). */
  tables: DdlObject[]
  backfill: { name: string; sql: string }[]
  meta: string
  /** Everything an earlier or unfinished install may have left, views first. */
  drop: string[]
}

/**
 * The run index: tables, the materialized views that keep them current, and the backfill from the
 * existing rows. Views are created before the backfill, so rows written meanwhile are counted
 * twice at worst, which the engines absorb (replacing / min / max / argMax). A materialized view
 * reads the inserted block wherever its source table is named, so the lookups below are bound to
 * the keys of that block: a single-row write looks up a single run.
 */
export function runIndexDdl(t: TableNames, ix: RunIndexNames): RunIndexDdl {
  const wm = source(t.workingMemory)
  const runsTable = source(t.runs)
  const blockKeys = `SELECT org, namespace, agent, run_id FROM ${wm}`
  const noRunRow = `${RUN_KEY} NOT IN (SELECT org, namespace, agent, run_id FROM ${runsTable} WHERE ${RUN_KEY} IN (${blockKeys}))`
  const orphanSelect = (where: string) => `SELECT org, namespace, agent, run_id,
    min(updated_at) AS first_at,
    argMaxState((user_id, session_id), ${NEWEST}) AS newest_identity,
    toUInt8(0) AS has_run_row
FROM ${wm}
WHERE ${where}
GROUP BY org, namespace, agent, run_id`
  const firstWriteRow = (firstAt: string) => `'' AS user_id, '' AS session_id, '' AS goal, 'unknown' AS status,
    toUInt32(0) AS attempt, ${firstAt} AS started_at, CAST(NULL, 'Nullable(DateTime64(3, \\'UTC\\'))') AS completed_at,
    CAST(NULL, 'Nullable(UInt64)') AS duration_ms, toUInt32(0) AS turns, toFloat64(0) AS cost_usd, toUInt64(0) AS version,
    toUInt8(1) AS kind`
  const checkpointSelect = (from: string) => `SELECT org, namespace, agent, run_id, user_id, session_id, version, updated_at,
    toUInt32(lengthUTF8(content)) AS chars, char_limit, is_deleted
FROM ${from}
WHERE block_key = 'checkpoint'`
  const sessionsSelect = `SELECT DISTINCT org, namespace, run_id, agent, user_id, session_id
FROM ${wm}`
  const runsSelect = (from: string) => `SELECT org, namespace, agent, run_id, user_id, session_id, goal, status, attempt, started_at,
    completed_at, duration_ms, turns, cost_usd, version, toUInt8(0) AS kind
FROM ${from}`
  const objects: RunIndexDdl['objects'] = [
    {
      name: ix.runs,
      kind: 'table',
      what: `table: the runs list in list order (started_at, org, namespace, agent, run_id): each ${t.runs} version, and the first working-memory write of each run without a run row`,
      sql: `CREATE TABLE IF NOT EXISTS ${ix.runs} (
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
    },
    {
      name: ix.orphans,
      kind: 'table',
      what: `table: per run that wrote working memory without a ${t.runs} row: first write, newest (user_id, session_id), and whether a run row came later`,
      sql: `CREATE TABLE IF NOT EXISTS ${ix.orphans} (
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
    },
    {
      name: ix.checkpoints,
      kind: 'table',
      what: `table: the latest 'checkpoint' block of each run and (user_id, session_id), for the list's checkpoint column`,
      sql: `CREATE TABLE IF NOT EXISTS ${ix.checkpoints} (
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
    },
    {
      name: ix.sessions,
      kind: 'table',
      what: `table: the (agent, user_id, session_id) under which each run wrote working memory, so run-scoped reads of ${t.workingMemory} bind its whole sorting-key prefix`,
      sql: `CREATE TABLE IF NOT EXISTS ${ix.sessions} (
    org String,
    namespace String,
    run_id String,
    agent String,
    user_id String,
    session_id String
) ENGINE = ReplacingMergeTree
ORDER BY (org, namespace, run_id, agent, user_id, session_id)
SETTINGS index_granularity = 256`,
    },
    {
      name: ix.runsView,
      kind: 'view',
      what: `materialized view: copies each new ${t.runs} row's list columns into ${ix.runs}`,
      sql: `CREATE MATERIALIZED VIEW IF NOT EXISTS ${ix.runsView} TO ${ix.runs} AS
${runsSelect(runsTable)}`,
    },
    {
      name: ix.firstWriteView,
      kind: 'view',
      what: `materialized view: on each ${t.workingMemory} insert, adds a row to ${ix.runs} for a run that has no ${t.runs} row and no earlier write (key lookups for the runs in the insert)`,
      sql: `CREATE MATERIALIZED VIEW IF NOT EXISTS ${ix.firstWriteView} TO ${ix.runs} AS
SELECT org, namespace, agent, run_id, ${firstWriteRow('first_at')}
FROM (SELECT org, namespace, agent, run_id, min(updated_at) AS first_at FROM ${wm} WHERE ${noRunRow}
      GROUP BY org, namespace, agent, run_id) AS w
LEFT JOIN (SELECT org, namespace, agent, run_id, min(first_at) AS earlier FROM ${ix.orphans}
      WHERE ${RUN_KEY} IN (${blockKeys}) GROUP BY org, namespace, agent, run_id) AS o
USING (org, namespace, agent, run_id)
WHERE o.earlier = ${EPOCH} OR o.earlier >= w.first_at`,
    },
    {
      name: ix.orphansView,
      kind: 'view',
      what: `materialized view: on each ${t.workingMemory} insert, records the runs of the inserted rows that have no ${t.runs} row in ${ix.orphans}`,
      sql: `CREATE MATERIALIZED VIEW IF NOT EXISTS ${ix.orphansView} TO ${ix.orphans} AS
${orphanSelect(noRunRow)}`,
    },
    {
      name: ix.orphansRunsView,
      kind: 'view',
      what: `materialized view: on each ${t.runs} insert, marks a run recorded in ${ix.orphans} as having a run row`,
      sql: `CREATE MATERIALIZED VIEW IF NOT EXISTS ${ix.orphansRunsView} TO ${ix.orphans} AS
SELECT org, namespace, agent, run_id,
    ${NO_TIME} AS first_at,
    argMaxState(('', ''), (${EPOCH}, toUInt64(0))) AS newest_identity,
    toUInt8(1) AS has_run_row
FROM ${runsTable}
WHERE ${RUN_KEY} IN (SELECT org, namespace, agent, run_id FROM ${ix.orphans}
    WHERE ${RUN_KEY} IN (SELECT org, namespace, agent, run_id FROM ${runsTable}))
GROUP BY org, namespace, agent, run_id`,
    },
    {
      name: ix.checkpointsView,
      kind: 'view',
      what: `materialized view: copies each new 'checkpoint' row of ${t.workingMemory} (size, version, tombstone) into ${ix.checkpoints}`,
      sql: `CREATE MATERIALIZED VIEW IF NOT EXISTS ${ix.checkpointsView} TO ${ix.checkpoints} AS
${checkpointSelect(wm)}`,
    },
    {
      name: ix.sessionsView,
      kind: 'view',
      what: `materialized view: records the (run, agent, user_id, session_id) of each new ${t.workingMemory} row in ${ix.sessions}`,
      sql: `CREATE MATERIALIZED VIEW IF NOT EXISTS ${ix.sessionsView} TO ${ix.sessions} AS
${sessionsSelect}`,
    },
  ]
  const flags = flagIndexDdl(t, ix)
  objects.splice(objects.findIndex((o) => o.kind === 'view'), 0, ...flags.objects.filter((o) => o.kind === 'table'))
  objects.push(...flags.objects.filter((o) => o.kind === 'view'))
  const orphanKeys = `${RUN_KEY} NOT IN (SELECT org, namespace, agent, run_id FROM ${runsTable})`
  return {
    objects,
    tables: objects,
    backfill: [
      { name: ix.runs, sql: `INSERT INTO ${ix.runs}\n${runsSelect(source(t.runs, { final: true }))}` },
      {
        name: ix.runs,
        sql: `INSERT INTO ${ix.runs}
SELECT org, namespace, agent, run_id, ${firstWriteRow('min(updated_at)')}
FROM ${wm} WHERE ${orphanKeys}
GROUP BY org, namespace, agent, run_id`,
      },
      { name: ix.orphans, sql: `INSERT INTO ${ix.orphans}\n${orphanSelect(orphanKeys)}` },
      { name: ix.checkpoints, sql: `INSERT INTO ${ix.checkpoints}\n${checkpointSelect(source(t.workingMemory, { final: true }))}` },
      { name: ix.sessions, sql: `INSERT INTO ${ix.sessions}\n${sessionsSelect}` },
      ...flags.backfill,
    ],
    meta: `CREATE TABLE IF NOT EXISTS ${ix.meta} (
    installed_at DateTime64(3, 'UTC'),
    schema_version UInt32,
    note String
) ENGINE = MergeTree
ORDER BY installed_at`,
    drop: [
      ...ix.oldMetas,
      ...objects.filter((o) => o.kind === 'view').map((o) => o.name),
      ...objects.filter((o) => o.kind === 'table').map((o) => o.name),
    ],
  }
}
