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
 * - `candidates`: the few runs a near_limit, missing_blob or near_miss filter has to check, so
 *   those filters read these instead of every run they pass, by `kind`:
 *   - `near_limit` / `missing_blob`: runs that ever wrote a checkpoint at ≥ 90 % of its
 *     char_limit, or naming a blob_key (kept as `detail`: blobs expire, so whether the blob is
 *     there is decided when read);
 *   - `shared`: run_ids written under two identities, where a near miss is possible. Each insert
 *     looks its runs up in `owners`: a run that `owners` already holds under an identity the
 *     insert does not bring, or that the insert brings under two, is shared;
 *   - `arrival`: every other identity an insert brings, kept a day. When two first writes race,
 *     neither sees the other in `owners`, but both arrive, and the next write to the run marks it
 *     shared. near_miss candidates are the shared run_ids plus those with two arrivals; a pair
 *     that raced and never wrote again is a candidate for a day only (an exhaustive scan, as
 *     batches use, still finds it).
 *   One view per source table, so an insert looks `owners` up once.
 *   - `tie`: runs that wrote a version of a block again: an insert with two rows of one (block,
 *     version), or a version no higher than the highest the block had before (a tie, or an older
 *     row arriving late; the flag itself is decided by the counts). Each insert's blocks are looked
 *     up in `block_versions` (highest version per block) through `tie_probe`, a Null table whose
 *     views then record the new highest versions and the candidates: the lookup is done before the
 *     write, as two inserts in turn need. Two inserts that race on a ClickHouse server can both miss
 *     each other; the embedded engine runs one at a time.
 *
 * The views see every insert, so counts include versions that merges of working memory later
 * collapse; the backfill can only see the rows still there when the index is installed.
 */
import { inDatabase, source, type DdlObject } from './tables'
import type { TableNames } from '../tables/table-keys'
import { NEAR_LIMIT_RATIO } from '../triage/flags'

export type FlagIndexNames = {
  flags: string
  flagsWmView: string
  flagsRunsView: string
  owners: string
  ownersWmView: string
  ownersRunsView: string
  candidates: string
  candidatesWmView: string
  candidatesRunsView: string
  blockVersions: string
  tieProbe: string
  tieProbeView: string
  blockVersionsView: string
  tieCandidatesView: string
}

export function flagIndexNames(runsDatabase: string): FlagIndexNames {
  return inDatabase(runsDatabase, {
    flags: 'run_index_flags',
    flagsWmView: 'run_index_flags_wm_mv',
    flagsRunsView: 'run_index_flags_runs_mv',
    owners: 'run_index_owners',
    ownersWmView: 'run_index_owners_wm_mv',
    ownersRunsView: 'run_index_owners_runs_mv',
    candidates: 'run_index_candidates',
    candidatesWmView: 'run_index_candidates_wm_mv',
    candidatesRunsView: 'run_index_candidates_runs_mv',
    blockVersions: 'run_index_block_versions',
    tieProbe: 'run_index_tie_probe',
    tieProbeView: 'run_index_tie_probe_mv',
    blockVersionsView: 'run_index_block_versions_mv',
    tieCandidatesView: 'run_index_tie_candidates_mv',
  })
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
const BLOCK_KEY = '(org, namespace, agent, run_id, user_id, session_id, block_key)'

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

/** The identities an insert brings: its checkpoint rows of working memory, or its run rows. */
function identitiesOf(from: string, where: string) {
  return `SELECT org, namespace, run_id, agent, user_id, session_id FROM ${from}${where ? ` WHERE ${where}` : ''}`
}

/**
 * Whether an inserted row's run is shared: `owners` holds it under an identity the insert does not
 * bring, or the insert brings two (`ids`: identitiesOf the insert).
 */
function sharedCondition(owners: string, ids: string) {
  const heldOtherwise = `SELECT org, namespace, run_id FROM ${owners}
      WHERE (org, namespace, run_id) IN (SELECT org, namespace, run_id FROM (${ids}))
        AND (org, namespace, run_id, agent, user_id, session_id) NOT IN (SELECT org, namespace, run_id, agent, user_id, session_id FROM (${ids}))`
  const twoInInsert = `SELECT org, namespace, run_id FROM (${ids}) GROUP BY org, namespace, run_id HAVING uniqExact(agent, user_id, session_id) >= 2`
  return `((org, namespace, run_id) IN (${heldOtherwise}) OR (org, namespace, run_id) IN (${twoInInsert}))`
}

/** Candidates a checkpoint row can be: near_limit (≥ 90 % of its limit), missing_blob (names a blob_key, kept as the detail). */
const MARKS = `(if(is_deleted = 0 AND char_limit > 0 AND lengthUTF8(content) >= ${NEAR_LIMIT_RATIO} * char_limit, 'near_limit', ''), agent, '', '', ''),
      (if(is_deleted = 0 AND JSONExtractString(content, 'blob_key') != '', 'missing_blob', ''), agent, '', '', JSONExtractString(content, 'blob_key'))`

/**
 * The candidate rows of an insert (one view per source, so each insert looks `owners` up once):
 * for working memory's checkpoint rows, their marks and their identity; for run rows, their
 * identity. An identity is `shared` (per run_id) or an `arrival`. `marks`: only the marks (the backfill).
 */
function candidatesFrom(owners: string, from: string, source: 'wm' | 'runs' | 'marks') {
  const where = source === 'runs' ? '' : "block_key = 'checkpoint'"
  const identity =
    source === 'marks'
      ? ''
      : `if(${sharedCondition(owners, identitiesOf(from, where))}, ('shared', '', '', '', ''), ('arrival', agent, user_id, session_id, ''))`
  const kinds = [source === 'runs' ? '' : MARKS, identity].filter(Boolean).join(',\n      ')
  return `SELECT c.1 AS kind, org, namespace, run_id, c.2 AS agent, c.3 AS user_id, c.4 AS session_id, c.5 AS detail, now64(3) AS seen_at
FROM (
  SELECT org, namespace, run_id, arrayFilter(x -> x.1 != '', [
      ${kinds}]) AS cs
  FROM ${from}${where ? ` WHERE ${where}` : ''})
ARRAY JOIN cs AS c
GROUP BY kind, org, namespace, run_id, agent, user_id, session_id, detail`
}

/** How long an arrival is kept: far longer than two racing inserts take. */
const ARRIVALS_TTL = 'INTERVAL 1 DAY'

export type FlagIndexDdl = {
  objects: DdlObject[]
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
        sql: `CREATE TABLE IF NOT EXISTS ${ix.owners} (${IDENTITY_OF_RUN},
    has_checkpoint SimpleAggregateFunction(max, UInt8),
    run_identity SimpleAggregateFunction(max, UInt8)
) ENGINE = AggregatingMergeTree
ORDER BY (org, namespace, run_id, agent, user_id, session_id)
SETTINGS index_granularity = 256`,
      },
      {
        name: ix.candidates,
        kind: 'table',
        what: `table: the few runs a near_limit, missing_blob or near_miss filter has to check (shared run_ids, and for a day each identity that arrived with no other)`,
        sql: `CREATE TABLE IF NOT EXISTS ${ix.candidates} (
    kind LowCardinality(String),${IDENTITY_OF_RUN},
    detail String,
    seen_at ${TIME}
) ENGINE = ReplacingMergeTree(seen_at)
ORDER BY (kind, org, namespace, run_id, agent, user_id, session_id, detail)
TTL toDateTime(seen_at) + ${ARRIVALS_TTL} WHERE kind = 'arrival'`,
      },
      {
        name: ix.blockVersions,
        kind: 'table',
        what: `table: the highest version each block of ${t.workingMemory} was written at, for tie candidates`,
        sql: `CREATE TABLE IF NOT EXISTS ${ix.blockVersions} (${IDENTITY_OF_RUN},
    block_key String,
    max_version SimpleAggregateFunction(max, UInt64)
) ENGINE = AggregatingMergeTree
ORDER BY (org, namespace, agent, run_id, user_id, session_id, block_key)
SETTINGS index_granularity = 256`,
      },
      {
        name: ix.tieProbe,
        kind: 'table',
        what: `table: each ${t.workingMemory} insert's (block, version) keys with the highest version their block had before, passed on to the views that record versions and tie candidates (Null engine: keeps nothing)`,
        sql: `CREATE TABLE IF NOT EXISTS ${ix.tieProbe} (${IDENTITY_OF_RUN},
    block_key String,
    version UInt64,
    copies UInt64,
    known UInt8,
    seen UInt64
) ENGINE = Null`,
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
        name: ix.candidatesWmView,
        kind: 'view',
        what: `materialized view: adds to ${ix.candidates} each new checkpoint row of ${t.workingMemory} that could carry near_limit or missing_blob, and its identity (shared run, or an arrival)`,
        sql: `CREATE MATERIALIZED VIEW IF NOT EXISTS ${ix.candidatesWmView} TO ${ix.candidates} AS\n${candidatesFrom(ix.owners, wm, 'wm')}`,
        source: t.workingMemory,
      },
      {
        name: ix.blockVersionsView,
        kind: 'view',
        what: `materialized view: records the version of each (block, version) key in ${ix.tieProbe} in ${ix.blockVersions}`,
        sql: `CREATE MATERIALIZED VIEW IF NOT EXISTS ${ix.blockVersionsView} TO ${ix.blockVersions} AS
SELECT org, namespace, run_id, agent, user_id, session_id, block_key, version AS max_version FROM ${ix.tieProbe}`,
        source: ix.tieProbe,
      },
      {
        name: ix.tieCandidatesView,
        kind: 'view',
        what: `materialized view: adds to ${ix.candidates} the runs whose insert in ${ix.tieProbe} wrote a (block, version) twice or a version no higher than the block's highest`,
        sql: `CREATE MATERIALIZED VIEW IF NOT EXISTS ${ix.tieCandidatesView} TO ${ix.candidates} AS
SELECT 'tie' AS kind, org, namespace, run_id, agent, '' AS user_id, '' AS session_id, '' AS detail, now64(3) AS seen_at
FROM ${ix.tieProbe}
WHERE copies >= 2 OR (known = 1 AND version <= seen)`,
        source: ix.tieProbe,
      },
      {
        name: ix.tieProbeView,
        kind: 'view',
        what: `materialized view: on each ${t.workingMemory} insert, looks its blocks up in ${ix.blockVersions} and passes each (block, version) key with the block's highest version before to ${ix.tieProbe}`,
        sql: `CREATE MATERIALIZED VIEW IF NOT EXISTS ${ix.tieProbeView} TO ${ix.tieProbe} AS
SELECT i.org AS org, i.namespace AS namespace, i.run_id AS run_id, i.agent AS agent, i.user_id AS user_id, i.session_id AS session_id,
    i.block_key AS block_key, i.version AS version, i.copies AS copies, b.known AS known, b.seen AS seen
FROM (SELECT org, namespace, agent, run_id, user_id, session_id, block_key, version, count() AS copies FROM ${wm}
      GROUP BY org, namespace, agent, run_id, user_id, session_id, block_key, version) AS i
LEFT JOIN (SELECT org, namespace, agent, run_id, user_id, session_id, block_key, max(max_version) AS seen, toUInt8(1) AS known
      FROM ${ix.blockVersions}
      WHERE ${BLOCK_KEY} IN (SELECT org, namespace, agent, run_id, user_id, session_id, block_key FROM ${wm})
      GROUP BY org, namespace, agent, run_id, user_id, session_id, block_key) AS b
USING (org, namespace, agent, run_id, user_id, session_id, block_key)`,
        source: t.workingMemory,
      },
      {
        name: ix.candidatesRunsView,
        kind: 'view',
        what: `materialized view: adds to ${ix.candidates} the identity of each new ${t.runs} row (shared run, or an arrival)`,
        sql: `CREATE MATERIALIZED VIEW IF NOT EXISTS ${ix.candidatesRunsView} TO ${ix.candidates} AS\n${candidatesFrom(ix.owners, runs, 'runs')}`,
        source: t.runs,
      },
    ],
    backfill: [
      { name: ix.flags, sql: `INSERT INTO ${ix.flags} (org, namespace, agent, run_id, wm_rows, wm_keys, last_write, checkpoint_latest, checkpoint_writes)\n${flagsFromWm(wm)}` },
      { name: ix.flags, sql: `INSERT INTO ${ix.flags} (org, namespace, agent, run_id, run_state)\n${flagsFromRuns(runs)}` },
      { name: ix.owners, sql: `INSERT INTO ${ix.owners}\n${ownersFromWm(wm)}` },
      { name: ix.owners, sql: `INSERT INTO ${ix.owners}\n${ownersFromRuns(runs)}` },
      { name: ix.candidates, sql: `INSERT INTO ${ix.candidates}\n${candidatesFrom(ix.owners, wm, 'marks')}` },
      // After the owners' backfill: every run it (and the views, meanwhile) found under two identities.
      {
        name: ix.candidates,
        sql: `INSERT INTO ${ix.candidates} (kind, org, namespace, run_id, seen_at)
SELECT 'shared', org, namespace, run_id, now64(3) FROM ${ix.owners} GROUP BY org, namespace, run_id HAVING uniqExact(agent, user_id, session_id) >= 2`,
      },
      {
        name: ix.blockVersions,
        sql: `INSERT INTO ${ix.blockVersions}
SELECT org, namespace, run_id, agent, user_id, session_id, block_key, max(version) AS max_version FROM ${wm}
GROUP BY org, namespace, agent, run_id, user_id, session_id, block_key`,
      },
      // After the flags' backfill: every run whose rows there repeat a (block, version) key.
      {
        name: ix.candidates,
        sql: `INSERT INTO ${ix.candidates} (kind, org, namespace, run_id, agent, seen_at)
SELECT 'tie', org, namespace, run_id, agent, now64(3)
FROM (SELECT org, namespace, agent, run_id, sum(wm_rows) AS n_rows, uniqExactMerge(wm_keys) AS n_keys FROM ${ix.flags}
      GROUP BY org, namespace, agent, run_id)
WHERE n_rows > n_keys`,
      },
    ],
  }
}
