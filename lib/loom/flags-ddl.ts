/**
 * The run index's triage part: what each run's flags (lib/triage/flags.ts) are computed from,
 * kept current on write by materialized views, so listing or filtering by a flag reads one row
 * per run instead of grouping working memory.
 *
 * - `flags`: one row per run (org, namespace, agent, run_id) once merged: the run row's latest
 *   state, how many working-memory rows and distinct (identity, block, version) keys it wrote (a
 *   tie is a key written twice), its last write, its newest checkpoint (size, limit, tombstone,
 *   blob_key) and every checkpoint write's time, version, writer kind and process (resume points
 *   and the usual checkpoint interval are computed from those).
 * - `owners`: per (org, namespace, run_id), every (agent, user_id, session_id) that wrote a
 *   checkpoint or is a run row's identity: a near miss is a checkpoint under another one.
 *
 * The views see every insert, so counts include versions that merges of working memory later
 * collapse; the backfill can only see the rows still there when the index is installed.
 */
import type { TableNames } from './tables'
import { source } from './tables'

export type FlagIndexNames = { flags: string; flagsWmView: string; flagsRunsView: string; owners: string; ownersWmView: string; ownersRunsView: string }

export function flagIndexNames(runsDatabase: string): FlagIndexNames {
  const db = runsDatabase
  return {
    flags: `${db}.run_index_flags`,
    flagsWmView: `${db}.run_index_flags_wm_mv`,
    flagsRunsView: `${db}.run_index_flags_runs_mv`,
    owners: `${db}.run_index_owners`,
    ownersWmView: `${db}.run_index_owners_wm_mv`,
    ownersRunsView: `${db}.run_index_owners_runs_mv`,
  }
}

const TIME = "DateTime64(3, 'UTC')"
const OPERATOR = "startsWith(actor, 'operator:')"

/** Per run, from working-memory rows (any source: the live insert, or the rows at backfill). */
function flagsFromWm(from: string) {
  return `SELECT org, namespace, agent, run_id,
    count() AS wm_rows,
    uniqExactState(cityHash64(user_id, session_id, block_key, version)) AS wm_keys,
    max(updated_at) AS last_write,
    argMaxStateIf((toUInt32(lengthUTF8(content)), char_limit, is_deleted, JSONExtractString(content, 'blob_key')),
      (updated_at, version), block_key = 'checkpoint') AS checkpoint_latest,
    groupArrayStateIf((cityHash64(user_id, session_id), updated_at, version, toUInt8(${OPERATOR}), cityHash64(source_trace)),
      block_key = 'checkpoint') AS checkpoint_writes
FROM ${from}
GROUP BY org, namespace, agent, run_id`
}

function flagsFromRuns(from: string) {
  return `SELECT org, namespace, agent, run_id,
    argMaxState((toString(status), attempt, user_id, session_id, started_at), version) AS run_state
FROM ${from}
GROUP BY org, namespace, agent, run_id`
}

function ownersFromWm(from: string) {
  return `SELECT org, namespace, run_id, agent, user_id, session_id, toUInt8(1) AS has_checkpoint, toUInt8(0) AS run_identity
FROM ${from}
WHERE block_key = 'checkpoint'
GROUP BY org, namespace, run_id, agent, user_id, session_id`
}

function ownersFromRuns(from: string) {
  return `SELECT org, namespace, run_id, agent, user_id, session_id, toUInt8(0) AS has_checkpoint, toUInt8(1) AS run_identity
FROM ${from}
GROUP BY org, namespace, run_id, agent, user_id, session_id`
}

export type FlagIndexDdl = {
  objects: { name: string; kind: 'table' | 'view'; sql: string; what: string }[]
  backfill: { name: string; sql: string }[]
}

export function flagIndexDdl(t: TableNames, ix: FlagIndexNames): FlagIndexDdl {
  const wm = source(t.workingMemory)
  const runs = source(t.runs)
  return {
    objects: [
      {
        name: ix.flags,
        kind: 'table',
        what: `table: per run, what its flags are computed from (run state, write counts, newest checkpoint, checkpoint write times and processes)`,
        sql: `CREATE TABLE IF NOT EXISTS ${ix.flags} (
    org String,
    namespace String,
    agent String,
    run_id String,
    run_state AggregateFunction(argMax, Tuple(String, UInt32, String, String, ${TIME}), UInt64),
    wm_rows SimpleAggregateFunction(sum, UInt64),
    wm_keys AggregateFunction(uniqExact, UInt64),
    last_write SimpleAggregateFunction(max, ${TIME}),
    checkpoint_latest AggregateFunction(argMax, Tuple(UInt32, UInt32, UInt8, String), Tuple(${TIME}, UInt64)),
    checkpoint_writes AggregateFunction(groupArray, Tuple(UInt64, ${TIME}, UInt64, UInt8, UInt64))
) ENGINE = AggregatingMergeTree
ORDER BY (org, namespace, agent, run_id)
SETTINGS index_granularity = 256`,
      },
      {
        name: ix.owners,
        kind: 'table',
        what: `table: per (org, namespace, run_id), the identities that wrote a checkpoint or own a run row, for near misses`,
        sql: `CREATE TABLE IF NOT EXISTS ${ix.owners} (
    org String,
    namespace String,
    run_id String,
    agent String,
    user_id String,
    session_id String,
    has_checkpoint SimpleAggregateFunction(max, UInt8),
    run_identity SimpleAggregateFunction(max, UInt8)
) ENGINE = AggregatingMergeTree
ORDER BY (org, namespace, run_id, agent, user_id, session_id)
SETTINGS index_granularity = 256`,
      },
      {
        name: ix.flagsWmView,
        kind: 'view',
        what: `materialized view: adds each ${t.workingMemory} insert's counts, last write and checkpoint writes to ${ix.flags}`,
        sql: `CREATE MATERIALIZED VIEW IF NOT EXISTS ${ix.flagsWmView} TO ${ix.flags} AS\n${flagsFromWm(wm)}`,
      },
      {
        name: ix.flagsRunsView,
        kind: 'view',
        what: `materialized view: adds each ${t.runs} insert's status, attempt and identity to ${ix.flags}`,
        sql: `CREATE MATERIALIZED VIEW IF NOT EXISTS ${ix.flagsRunsView} TO ${ix.flags} AS\n${flagsFromRuns(runs)}`,
      },
      {
        name: ix.ownersWmView,
        kind: 'view',
        what: `materialized view: records the identity of each new checkpoint row of ${t.workingMemory} in ${ix.owners}`,
        sql: `CREATE MATERIALIZED VIEW IF NOT EXISTS ${ix.ownersWmView} TO ${ix.owners} AS\n${ownersFromWm(wm)}`,
      },
      {
        name: ix.ownersRunsView,
        kind: 'view',
        what: `materialized view: records the identity of each new ${t.runs} row in ${ix.owners}`,
        sql: `CREATE MATERIALIZED VIEW IF NOT EXISTS ${ix.ownersRunsView} TO ${ix.owners} AS\n${ownersFromRuns(runs)}`,
      },
    ],
    backfill: [
      { name: ix.flags, sql: `INSERT INTO ${ix.flags} (org, namespace, agent, run_id, wm_rows, wm_keys, last_write, checkpoint_latest, checkpoint_writes)\n${flagsFromWm(wm)}` },
      { name: ix.flags, sql: `INSERT INTO ${ix.flags} (org, namespace, agent, run_id, run_state)\n${flagsFromRuns(runs)}` },
      { name: ix.owners, sql: `INSERT INTO ${ix.owners}\n${ownersFromWm(wm)}` },
      { name: ix.owners, sql: `INSERT INTO ${ix.owners}\n${ownersFromRuns(runs)}` },
    ],
  }
}
