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
 * - `marks`: per flag, the runs that ever wrote a checkpoint that could carry it: one at ≥ 90 % of
 *   its char_limit (near_limit), one naming a blob_key (missing_blob, with the key: blobs expire,
 *   so whether the blob is there is decided when read). A run carrying either flag is among them, and there
 *   are few, so those filters check these runs only.
 * - `shared` and `arrivals`: the few runs a near miss is possible for, so a `near_miss` filter
 *   checks those instead of every run it passes. A near miss needs two identities under one
 *   (org, namespace, run_id). Each insert looks its runs up in `owners`: a run that `owners`
 *   already holds under an identity the insert does not bring, or that the insert itself brings
 *   under two, goes into `shared`. Every other identity the insert brings goes into `arrivals`
 *   (kept a day): when two first writes race, neither sees the other in `owners`, but both are in
 *   `arrivals`, and the next write to the run puts it into `shared`. The candidates are `shared`
 *   plus the runs with two identities in `arrivals`; a pair that raced and never wrote again is
 *   a candidate for a day only (an exhaustive scan, as batches use, still finds it).
 *
 * The views see every insert, so counts include versions that merges of working memory later
 * collapse; the backfill can only see the rows still there when the index is installed.
 */
import type { TableNames } from './tables'
import { source } from './tables'
import { NEAR_LIMIT_RATIO } from '../triage/flags'

export type FlagIndexNames = {
  flags: string
  flagsWmView: string
  flagsRunsView: string
  owners: string
  ownersWmView: string
  ownersRunsView: string
  marks: string
  marksWmView: string
  shared: string
  sharedWmView: string
  sharedRunsView: string
  arrivals: string
  arrivalsWmView: string
  arrivalsRunsView: string
}

export function flagIndexNames(runsDatabase: string): FlagIndexNames {
  const db = runsDatabase
  return {
    flags: `${db}.run_index_flags`,
    flagsWmView: `${db}.run_index_flags_wm_mv`,
    flagsRunsView: `${db}.run_index_flags_runs_mv`,
    owners: `${db}.run_index_owners`,
    ownersWmView: `${db}.run_index_owners_wm_mv`,
    ownersRunsView: `${db}.run_index_owners_runs_mv`,
    marks: `${db}.run_index_marks`,
    marksWmView: `${db}.run_index_marks_wm_mv`,
    shared: `${db}.run_index_shared`,
    sharedWmView: `${db}.run_index_shared_wm_mv`,
    sharedRunsView: `${db}.run_index_shared_runs_mv`,
    arrivals: `${db}.run_index_arrivals`,
    arrivalsWmView: `${db}.run_index_arrivals_wm_mv`,
    arrivalsRunsView: `${db}.run_index_arrivals_runs_mv`,
  }
}

const TIME = "DateTime64(3, 'UTC')"
/** Columns of a run_id (within its org and namespace) and one identity that wrote to it. */
const IDENTITY_OF_RUN = `
    org String,
    namespace String,
    run_id String,
    agent String,
    user_id String,
    session_id String`
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

/** Per checkpoint row that could carry near_limit or missing_blob, the flag and its run (and for missing_blob, the blob_key). */
function marksFrom(from: string) {
  return `SELECT flag, org, namespace, agent, run_id, if(flag = 'missing_blob', blob_key, '') AS detail FROM (
  SELECT org, namespace, agent, run_id, JSONExtractString(content, 'blob_key') AS blob_key, arrayFilter(f -> f != '', [
      if(is_deleted = 0 AND char_limit > 0 AND lengthUTF8(content) >= ${NEAR_LIMIT_RATIO} * char_limit, 'near_limit', ''),
      if(is_deleted = 0 AND blob_key != '', 'missing_blob', '')]) AS fs
  FROM ${from}
  WHERE block_key = 'checkpoint')
ARRAY JOIN fs AS flag
GROUP BY flag, org, namespace, agent, run_id, detail`
}

/** The identities an insert brings: its checkpoint rows of working memory, or its run rows. */
function identitiesOf(from: string, where = '') {
  return `SELECT org, namespace, run_id, agent, user_id, session_id FROM ${from}${where ? ` WHERE ${where}` : ''}`
}

/** The inserted runs that `owners` holds under an identity the insert does not bring (`ids`: identitiesOf the insert). */
function heldOtherwise(owners: string, ids: string) {
  return `SELECT org, namespace, run_id FROM ${owners}
    WHERE (org, namespace, run_id) IN (SELECT org, namespace, run_id FROM (${ids}))
      AND (org, namespace, run_id, agent, user_id, session_id) NOT IN (SELECT org, namespace, run_id, agent, user_id, session_id FROM (${ids}))`
}

function sharedFrom(owners: string, ids: string) {
  return `SELECT org, namespace, run_id FROM (${ids})
GROUP BY org, namespace, run_id
HAVING uniqExact(agent, user_id, session_id) >= 2 OR (org, namespace, run_id) IN (${heldOtherwise(owners, ids)})`
}

function arrivalsFrom(owners: string, ids: string) {
  return `SELECT org, namespace, run_id, agent, user_id, session_id, now64(3) AS seen_at FROM (${ids})
WHERE (org, namespace, run_id) NOT IN (${heldOtherwise(owners, ids)})
GROUP BY org, namespace, run_id, agent, user_id, session_id`
}

/** How long an identity stays in `arrivals`: far longer than two racing inserts take. */
const ARRIVALS_TTL = 'INTERVAL 1 DAY'

export type FlagIndexDdl = {
  objects: { name: string; kind: 'table' | 'view'; sql: string; what: string }[]
  backfill: { name: string; sql: string }[]
}

export function flagIndexDdl(t: TableNames, ix: FlagIndexNames): FlagIndexDdl {
  const wm = source(t.workingMemory)
  const runs = source(t.runs)
  const wmIds = identitiesOf(wm, "block_key = 'checkpoint'")
  const runIds = identitiesOf(runs)
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
        sql: `CREATE TABLE IF NOT EXISTS ${ix.owners} (${IDENTITY_OF_RUN},
    has_checkpoint SimpleAggregateFunction(max, UInt8),
    run_identity SimpleAggregateFunction(max, UInt8)
) ENGINE = AggregatingMergeTree
ORDER BY (org, namespace, run_id, agent, user_id, session_id)
SETTINGS index_granularity = 256`,
      },
      {
        name: ix.marks,
        kind: 'table',
        what: `table: per flag (near_limit, missing_blob), the runs that wrote a checkpoint that could carry it`,
        sql: `CREATE TABLE IF NOT EXISTS ${ix.marks} (
    flag LowCardinality(String),
    org String,
    namespace String,
    agent String,
    run_id String,
    detail String
) ENGINE = ReplacingMergeTree
ORDER BY (flag, org, namespace, agent, run_id, detail)`,
      },
      {
        name: ix.shared,
        kind: 'table',
        what: `table: the (org, namespace, run_id) written under two or more identities: where a near miss is possible`,
        sql: `CREATE TABLE IF NOT EXISTS ${ix.shared} (
    org String,
    namespace String,
    run_id String
) ENGINE = ReplacingMergeTree
ORDER BY (org, namespace, run_id)`,
      },
      {
        name: ix.arrivals,
        kind: 'table',
        what: `table: identities whose write found no other identity of their run (kept a day), so racing first writes still make a near-miss candidate`,
        sql: `CREATE TABLE IF NOT EXISTS ${ix.arrivals} (${IDENTITY_OF_RUN},
    seen_at ${TIME}
) ENGINE = ReplacingMergeTree(seen_at)
ORDER BY (org, namespace, run_id, agent, user_id, session_id)
TTL toDateTime(seen_at) + ${ARRIVALS_TTL}`,
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
      {
        name: ix.marksWmView,
        kind: 'view',
        what: `materialized view: adds to ${ix.marks} each run whose new checkpoint row of ${t.workingMemory} is at ≥ 90 % of its limit or names a blob_key`,
        sql: `CREATE MATERIALIZED VIEW IF NOT EXISTS ${ix.marksWmView} TO ${ix.marks} AS\n${marksFrom(wm)}`,
      },
      {
        name: ix.sharedWmView,
        kind: 'view',
        what: `materialized view: adds to ${ix.shared} each run a new checkpoint row of ${t.workingMemory} gives a second identity`,
        sql: `CREATE MATERIALIZED VIEW IF NOT EXISTS ${ix.sharedWmView} TO ${ix.shared} AS\n${sharedFrom(ix.owners, wmIds)}`,
      },
      {
        name: ix.sharedRunsView,
        kind: 'view',
        what: `materialized view: adds to ${ix.shared} each run a new ${t.runs} row gives a second identity`,
        sql: `CREATE MATERIALIZED VIEW IF NOT EXISTS ${ix.sharedRunsView} TO ${ix.shared} AS\n${sharedFrom(ix.owners, runIds)}`,
      },
      {
        name: ix.arrivalsWmView,
        kind: 'view',
        what: `materialized view: records in ${ix.arrivals} the identity of each new checkpoint row of ${t.workingMemory} that found no other identity of its run`,
        sql: `CREATE MATERIALIZED VIEW IF NOT EXISTS ${ix.arrivalsWmView} TO ${ix.arrivals} AS\n${arrivalsFrom(ix.owners, wmIds)}`,
      },
      {
        name: ix.arrivalsRunsView,
        kind: 'view',
        what: `materialized view: records in ${ix.arrivals} the identity of each new ${t.runs} row that found no other identity of its run`,
        sql: `CREATE MATERIALIZED VIEW IF NOT EXISTS ${ix.arrivalsRunsView} TO ${ix.arrivals} AS\n${arrivalsFrom(ix.owners, runIds)}`,
      },
    ],
    backfill: [
      { name: ix.flags, sql: `INSERT INTO ${ix.flags} (org, namespace, agent, run_id, wm_rows, wm_keys, last_write, checkpoint_latest, checkpoint_writes)\n${flagsFromWm(wm)}` },
      { name: ix.flags, sql: `INSERT INTO ${ix.flags} (org, namespace, agent, run_id, run_state)\n${flagsFromRuns(runs)}` },
      { name: ix.owners, sql: `INSERT INTO ${ix.owners}\n${ownersFromWm(wm)}` },
      { name: ix.owners, sql: `INSERT INTO ${ix.owners}\n${ownersFromRuns(runs)}` },
      { name: ix.marks, sql: `INSERT INTO ${ix.marks}\n${marksFrom(wm)}` },
      // After the owners' backfill: every run it (and the views, meanwhile) found under two identities.
      {
        name: ix.shared,
        sql: `INSERT INTO ${ix.shared}\nSELECT org, namespace, run_id FROM ${ix.owners} GROUP BY org, namespace, run_id HAVING uniqExact(agent, user_id, session_id) >= 2`,
      },
    ],
  }
}
