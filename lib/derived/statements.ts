/**
 * The statements of a derivation batch (see derive.ts). Each recomputes the runs of its scope
 * whole, from the captured history (every version, whatever merges did to working memory) and
 * Loom's own tables, so running one twice writes the same rows again:
 * - `all`: every run (the first derivation after an install or upgrade);
 * - `dirty`: the runs a batch found in rows written after its watermarks (`derive_dirty`, by seq).
 */
import { join, param, sql, trusted, type Sql } from '../clickhouse/sql'
import { source } from '../loom/tables'
import type { TableNames } from '../tables/table-keys'
import { NEAR_LIMIT_RATIO, RUN_FLAGS, type RunFlag } from '../triage/flags'
import { BLOB_NAMED, CONDITIONS, MERGED, nearMissSql, STALL_AT_MS, type Needs } from '../triage/sql'
import { deriveNames, runFacetsNames, runIndexNames, runRollupNames } from './names'
import { checkpointBucketSql, contributions, EMPTY_STATE, EPOCH, NO_CHECKPOINT, NO_TIME, stateOf } from './rollup-state'

export type DeriveScope = { all: true; seq: number } | { all: false; seq: number }

export type DeriveContext = {
  t: TableNames
  runsDatabase: string
  /** Whether the history capture is installed (else working memory is read as it is, best effort). */
  history: boolean
}

const T = trusted
const WM_COLUMNS =
  'org, namespace, agent, user_id, session_id, run_id, block_key, content, char_limit, version, is_deleted, actor, source_trace, updated_at'
/** A row copied twice (history and working memory, or an insert retried as it was) counts once. */
const SAME_WRITE =
  'org, namespace, agent, user_id, session_id, run_id, block_key, version, updated_at, actor, source_trace'
const RUN_KEY = '(org, namespace, agent, run_id)'
const OPERATOR = "startsWith(actor, 'operator:')"

/** The highest block number of the part a row sits in (block numbers only grow, so a row with one above a watermark was written after it, or merged with such a row). */
export const PART_MAX_BLOCK = "toUInt64(splitByChar('_', substring(_part, length(_partition_id) + 2))[2])"

const seqParam = (scope: DeriveScope) => param('seq', 'UInt64', scope.seq)

function dirtyKeys(ctx: DeriveContext, scope: DeriveScope): Sql {
  return sql`SELECT org, namespace, agent, run_id FROM ${T(deriveNames(ctx.runsDatabase).dirty)} WHERE seq = ${seqParam(scope)}`
}

/** Loom.runs rows of the scope's runs (`final`: the latest version of each). */
function runRows(ctx: DeriveContext, scope: DeriveScope, final = false): Sql {
  const from = T(source(ctx.t.runs, { final }))
  return scope.all
    ? sql`SELECT * FROM ${from}`
    : sql`SELECT * FROM ${from} WHERE ${T(RUN_KEY)} IN (${dirtyKeys(ctx, scope)})`
}

/**
 * Every working-memory write of the scope's runs, as the batch's statements read them: for a dirty
 * scope the rows staged once per batch (rowsInsert), for every run the sources themselves.
 */
export function wmRows(ctx: DeriveContext, scope: DeriveScope): Sql {
  if (scope.all) return sourceRows(ctx, scope)
  return sql`SELECT ${T(WM_COLUMNS)} FROM ${T(deriveNames(ctx.runsDatabase).rows)} WHERE seq = ${seqParam(scope)}`
}

/** Stages the dirty runs' writes for the batch's statements (sent with the batch's deduplication token). */
export function rowsInsert(ctx: DeriveContext, scope: DeriveScope): Sql {
  return sql`INSERT INTO ${T(deriveNames(ctx.runsDatabase).rows)} (seq, ${T(WM_COLUMNS)})
SELECT ${seqParam(scope)}, ${T(WM_COLUMNS)} FROM (${sourceRows(ctx, scope)})`
}

/**
 * Every working-memory write of the scope's runs: the captured history, plus rows of working
 * memory it lacks (written before it was installed, or past its retention), each write once. A
 * dirty scope binds the whole sorting-key prefix through the runs' writer identities.
 */
function sourceRows(ctx: DeriveContext, scope: DeriveScope): Sql {
  const ix = runIndexNames(ctx.runsDatabase)
  const where = scope.all
    ? T('')
    : sql` WHERE (org, namespace, agent, user_id, session_id, run_id) IN (
        SELECT org, namespace, agent, user_id, session_id, run_id FROM ${T(ix.sessions)}
        WHERE ${T(RUN_KEY)} IN (${dirtyKeys(ctx, scope)}))`
  const wm = sql`SELECT ${T(WM_COLUMNS)} FROM ${T(source(ctx.t.workingMemory))}${where}`
  if (!ctx.history) return wm
  return sql`SELECT * FROM (
      SELECT ${T(WM_COLUMNS)} FROM ${T(ctx.t.history)}${where}
      UNION ALL
      ${wm})
    LIMIT 1 BY ${T(SAME_WRITE)}`
}

/** Where the scope's run keys come from (every run there is, or the batch's dirty runs). */
function scopeKeys(ctx: DeriveContext, scope: DeriveScope): Sql {
  if (!scope.all) return dirtyKeys(ctx, scope)
  return sql`SELECT org, namespace, agent, run_id FROM ${T(source(ctx.t.runs))}
    UNION DISTINCT SELECT org, namespace, agent, run_id FROM (${sourceRows(ctx, scope)})`
}

/** The writer identities of working-memory rows (new ones: `afterBlock`), for the sessions table. */
export function sessionsInsert(ctx: DeriveContext, afterBlock: number | null): Sql {
  const ix = runIndexNames(ctx.runsDatabase)
  const from = ctx.history ? ctx.t.history : source(ctx.t.workingMemory, { part: true })
  const newer =
    afterBlock === null ? T('') : sql` WHERE ${T(PART_MAX_BLOCK)} > ${param('after_h', 'UInt64', afterBlock)}`
  const wmPart =
    afterBlock === null && ctx.history
      ? sql` UNION DISTINCT SELECT org, namespace, run_id, agent, user_id, session_id FROM ${T(source(ctx.t.workingMemory))}`
      : T('')
  return sql`INSERT INTO ${T(ix.sessions)} (org, namespace, run_id, agent, user_id, session_id)
SELECT DISTINCT org, namespace, run_id, agent, user_id, session_id FROM ${T(from)}${newer}${wmPart}`
}

/** The runs written after the watermarks (working-memory history and loom.runs), as batch `seq`'s dirty set. */
export function dirtyInsert(ctx: DeriveContext, seq: number, afterHistory: number, afterRuns: number): Sql {
  const d = deriveNames(ctx.runsDatabase)
  const wmFrom = ctx.history ? ctx.t.history : source(ctx.t.workingMemory, { part: true })
  return sql`INSERT INTO ${T(d.dirty)} (seq, org, namespace, agent, run_id)
SELECT ${param('seq', 'UInt64', seq)}, org, namespace, agent, run_id FROM (
  SELECT org, namespace, agent, run_id FROM ${T(wmFrom)} WHERE ${T(PART_MAX_BLOCK)} > ${param('after_h', 'UInt64', afterHistory)}
  UNION DISTINCT
  SELECT org, namespace, agent, run_id FROM ${T(source(ctx.t.runs, { part: true }))} WHERE ${T(PART_MAX_BLOCK)} > ${param('after_r', 'UInt64', afterRuns)})`
}

/** The statements that recompute the scope's runs, in order (each safe to run again). */
/**
 * A statement of a batch. `cheaper`: a statement that writes the same rows when its `probe` finds no
 * row (a batch probes first; an install, which derives every run, runs `sql`).
 */
export type DeriveStatement = { name: string; sql: Sql; cheaper?: { probe: Sql; sql: Sql } }

export function deriveStatements(ctx: DeriveContext, scope: DeriveScope): DeriveStatement[] {
  const ix = runIndexNames(ctx.runsDatabase)
  const f = runFacetsNames(ctx.runsDatabase)
  const rows = wmRows(ctx, scope)
  const runs = runRows(ctx, scope)
  const runsFinal = runRows(ctx, scope, true)
  const runKeys = sql`SELECT org, namespace, agent, run_id FROM (${runs})`
  return [
    {
      name: ix.checkpoints,
      sql: sql`INSERT INTO ${T(ix.checkpoints)}
SELECT org, namespace, agent, run_id, user_id, session_id, max(version) AS latest_version,
    argMax(updated_at, (version, updated_at)) AS latest_at,
    argMax(toUInt32(lengthUTF8(content)), (version, updated_at)) AS latest_chars,
    argMax(char_limit, (version, updated_at)) AS latest_limit,
    argMax(is_deleted, (version, updated_at)) AS latest_deleted
FROM (${rows}) WHERE block_key = 'checkpoint'
GROUP BY org, namespace, agent, run_id, user_id, session_id`,
    },
    {
      name: ix.orphans,
      sql: sql`INSERT INTO ${T(ix.orphans)}
SELECT org, namespace, agent, run_id, min(updated_at) AS first_at,
    argMaxState((user_id, session_id), (updated_at, version)) AS newest_identity,
    toUInt8(${T(RUN_KEY)} IN (${runKeys})) AS has_run_row
FROM (${rows})
GROUP BY org, namespace, agent, run_id`,
    },
    {
      name: ix.runs,
      sql: sql`INSERT INTO ${T(ix.runs)}
SELECT org, namespace, agent, run_id, user_id, session_id, goal, status, attempt, started_at, completed_at, duration_ms,
    turns, cost_usd, version, toUInt8(0) AS kind
FROM (${runsFinal})
UNION ALL
SELECT org, namespace, agent, run_id, '' AS user_id, '' AS session_id, '' AS goal, 'unknown' AS status, toUInt32(0) AS attempt,
    min(updated_at) AS started_at, CAST(NULL, 'Nullable(DateTime64(3, \\'UTC\\'))') AS completed_at, CAST(NULL, 'Nullable(UInt64)') AS duration_ms,
    toUInt32(0) AS turns, toFloat64(0) AS cost_usd, toUInt64(0) AS version, toUInt8(1) AS kind
FROM (${rows})
WHERE ${T(RUN_KEY)} NOT IN (${runKeys})
GROUP BY org, namespace, agent, run_id`,
    },
    {
      name: ix.flags,
      sql: sql`INSERT INTO ${T(ix.flags)} (org, namespace, agent, run_id, seq, run_state, wm_rows, wm_keys, last_write, checkpoint_latest, checkpoint_writes)
SELECT org, namespace, agent, run_id, ${seqParam(scope)}, run_state, wm_rows, wm_keys, last_write, checkpoint_latest, checkpoint_writes
FROM (
    SELECT org, namespace, agent, run_id,
        argMaxState((toString(status), attempt, user_id, session_id, started_at), version) AS run_state
    FROM (${runs}) GROUP BY org, namespace, agent, run_id) AS r
FULL OUTER JOIN (
    SELECT org, namespace, agent, run_id,
        count() AS wm_rows,
        uniqExactState(cityHash64(user_id, session_id, block_key, version)) AS wm_keys,
        max(updated_at) AS last_write,
        argMaxStateIf((toUInt32(lengthUTF8(content)), char_limit, is_deleted, JSONExtractString(content, 'blob_key')),
          (updated_at, version), block_key = 'checkpoint') AS checkpoint_latest,
        groupArrayStateIf((cityHash64(user_id, session_id), updated_at, version, toUInt8(${T(OPERATOR)}), cityHash64(source_trace)),
          block_key = 'checkpoint') AS checkpoint_writes
    FROM (${rows}) GROUP BY org, namespace, agent, run_id) AS w
USING (org, namespace, agent, run_id)`,
    },
    {
      name: ix.owners,
      sql: sql`INSERT INTO ${T(ix.owners)}
SELECT org, namespace, run_id, agent, user_id, session_id, toUInt8(1) AS has_checkpoint, toUInt8(0) AS run_identity
FROM (${rows}) WHERE block_key = 'checkpoint'
GROUP BY org, namespace, run_id, agent, user_id, session_id
UNION ALL
SELECT org, namespace, run_id, agent, user_id, session_id, toUInt8(0), toUInt8(1)
FROM (${runs})
GROUP BY org, namespace, run_id, agent, user_id, session_id`,
    },
    {
      // near_limit (a checkpoint at ≥ 90 % of its limit, ever), missing_blob (a checkpoint naming a
      // blob_key, kept as the detail: blobs expire, so whether it is there is decided when read),
      // tie (a block written twice at one version).
      name: ix.candidates,
      sql: sql`INSERT INTO ${T(ix.candidates)} (kind, org, namespace, run_id, agent, user_id, session_id, detail, seen_at)
SELECT c.1 AS kind, org, namespace, run_id, agent, '' AS user_id, '' AS session_id, c.2 AS detail, now64(3) AS seen_at
FROM (
  SELECT org, namespace, run_id, agent, arrayFilter(x -> x.1 != '', [
      (if(is_deleted = 0 AND char_limit > 0 AND lengthUTF8(content) >= ${T(String(NEAR_LIMIT_RATIO))} * char_limit, 'near_limit', ''), ''),
      (if(is_deleted = 0 AND JSONExtractString(content, 'blob_key') != '', 'missing_blob', ''), JSONExtractString(content, 'blob_key'))]) AS cs
  FROM (${rows}) WHERE block_key = 'checkpoint')
ARRAY JOIN cs AS c
GROUP BY kind, org, namespace, run_id, agent, detail
UNION ALL
SELECT 'tie', org, namespace, run_id, agent, '', '', '', now64(3)
FROM (${rows})
GROUP BY org, namespace, agent, run_id
HAVING count() > uniqExact(user_id, session_id, block_key, version)`,
    },
    {
      // After the owners: every run_id of the scope written under two identities (where a near miss is possible).
      name: `${ix.candidates} (shared)`,
      sql: sql`INSERT INTO ${T(ix.candidates)} (kind, org, namespace, run_id, seen_at)
SELECT 'shared', org, namespace, run_id, now64(3) FROM ${T(ix.owners)}
${scope.all ? T('') : sql`WHERE (org, namespace, run_id) IN (SELECT org, namespace, run_id FROM (${dirtyKeys(ctx, scope)}))`}
GROUP BY org, namespace, run_id HAVING uniqExact(agent, user_id, session_id) >= 2`,
    },
    {
      // After the flags, owners and candidates: each run's flags decided once, for cohorts. A near
      // miss needs a run_id written under two identities (a candidate): without one in the scope,
      // no run of it has one, and the near-miss check (half the statement's cost) is left out.
      name: ix.triage,
      sql: triageInsert(ctx, scope, true),
      ...(scope.all
        ? {}
        : {
            cheaper: {
              probe: sql`SELECT 1 FROM ${T(ix.candidates)} WHERE kind IN ('shared', 'arrival')
  AND (org, namespace, run_id) IN (SELECT org, namespace, run_id FROM (${dirtyKeys(ctx, scope)})) LIMIT 1`,
              sql: triageInsert(ctx, scope, false),
            },
          }),
    },
    {
      name: f.table,
      sql: sql`INSERT INTO ${T(f.table)}
SELECT org, namespace, agent, uniqState(run_id) AS runs FROM (${scopeKeys(ctx, scope)})
GROUP BY org, namespace, agent`,
    },
  ]
}

/** The rollup's first step: each run's previous state (as the rollup holds it) and its next one, staged under the batch's seq. */
export function rollupStage(ctx: DeriveContext, scope: DeriveScope): Sql {
  const r = runRollupNames(ctx.runsDatabase)
  const rows = wmRows(ctx, scope)
  const ck = (i: number) => `tupleElement(ck, ${i})`
  const runPart = (i: number) => `tupleElement(r, ${i})`
  const next = stateOf([
    'has_row',
    runPart(1),
    runPart(2),
    runPart(3),
    runPart(4),
    runPart(5),
    `if(found = 1, first_at, ${NO_TIME})`,
    `if(has_ck, ${ck(1)}, ${EPOCH})`,
    `if(has_ck, ${ck(2)}, 0)`,
    `if(has_ck, ${ck(3)}, ${NO_CHECKPOINT})`,
  ])
  const prev = scope.all
    ? T('')
    : sql`LEFT JOIN (SELECT org, namespace, agent, run_id, argMax(st, seq) AS last_st, toUInt8(1) AS s_found
          FROM ${T(r.state)} WHERE ${T(RUN_KEY)} IN (${dirtyKeys(ctx, scope)}) GROUP BY org, namespace, agent, run_id) AS s
        USING (org, namespace, agent, run_id)`
  return sql`INSERT INTO ${T(r.changes)} (seq, org, namespace, agent, run_id, prev, next, staged_at)
SELECT ${seqParam(scope)}, org, namespace, agent, run_id, ${scope.all ? T(EMPTY_STATE) : T(`if(s_found = 1, last_st, ${EMPTY_STATE})`)} AS prev,
    ${T(next)} AS next, now64(3)
FROM (
    SELECT k.org AS org, k.namespace AS namespace, k.agent AS agent, k.run_id AS run_id, b.has_row AS has_row, b.r AS r,
        w.found AS found, w.first_at AS first_at, w.has_ck AS has_ck, w.ck AS ck
    FROM (${scopeKeys(ctx, scope)}) AS k
    LEFT JOIN (SELECT org, namespace, agent, run_id, toUInt8(1) AS has_row,
            argMax((version, toString(status), started_at, attempt, last_begin_at), version) AS r
        FROM (${runRows(ctx, scope)}) GROUP BY org, namespace, agent, run_id) AS b
      ON k.org = b.org AND k.namespace = b.namespace AND k.agent = b.agent AND k.run_id = b.run_id
    LEFT JOIN (SELECT org, namespace, agent, run_id, toUInt8(1) AS found, min(updated_at) AS first_at,
            countIf(block_key = 'checkpoint') > 0 AS has_ck,
            argMaxIf((updated_at, version, ${T(checkpointBucketSql('lengthUTF8(content)'))}), (updated_at, version), block_key = 'checkpoint') AS ck
        FROM (${rows}) GROUP BY org, namespace, agent, run_id) AS w
      ON k.org = w.org AND k.namespace = w.namespace AND k.agent = w.agent AND k.run_id = w.run_id
) AS x
${prev}`
}

/** Adds the batch's difference (next minus previous contributions) to the sums; sent with the batch's deduplication token. */
export function rollupSumsInsert(ctx: DeriveContext, scope: DeriveScope): Sql {
  const r = runRollupNames(ctx.runsDatabase)
  return sql`INSERT INTO ${T(r.sums)}
SELECT level,
    if(level >= 1, o, '') AS org, if(level >= 2, n, '') AS namespace, if(level = 3, a, '') AS agent,
    tupleElement(d.1, 1) AS kind, tupleElement(d.1, 2) AS at, tupleElement(d.1, 3) AS status, tupleElement(d.1, 4) AS bucket,
    sum(tupleElement(d.1, 5) * d.2) AS runs, sum(tupleElement(d.1, 6) * d.2) AS extra
FROM (
    SELECT org AS o, namespace AS n, agent AS a, ${T(contributions('prev'))} AS was, ${T(contributions('next'))} AS cur
    FROM ${T(r.changes)} FINAL WHERE seq = ${seqParam(scope)}
)
ARRAY JOIN arrayConcat(
    arrayMap(c -> (c, toInt64(-1)), arrayFilter(c -> NOT has(cur, c), was)),
    arrayMap(c -> (c, toInt64(1)), arrayFilter(c -> NOT has(was, c), cur))) AS d
ARRAY JOIN [0, 1, 2, 3] AS level
GROUP BY level, org, namespace, agent, kind, at, status, bucket`
}

/** Stores each staged run's next state. */
export function rollupStateInsert(ctx: DeriveContext, scope: DeriveScope): Sql {
  const r = runRollupNames(ctx.runsDatabase)
  return sql`INSERT INTO ${T(r.state)}
SELECT org, namespace, agent, run_id, ${seqParam(scope)} AS batch_seq, next AS st, tupleElement(next, 'version') AS version, tupleElement(next, 'has_row') AS has_row
FROM ${T(r.changes)} FINAL WHERE seq = ${seqParam(scope)}`
}

/** Each run row's cost and duration, under scope '' (any status) and under its status. */
export function rollupTopInsert(ctx: DeriveContext, scope: DeriveScope): Sql {
  const r = runRollupNames(ctx.runsDatabase)
  return sql`INSERT INTO ${T(r.top)}
SELECT m.1 AS metric, scope, m.2 AS value, -m.2 AS neg_value, org, namespace, agent, run_id, version, goal,
    toString(status) AS status, started_at, last_begin_at, completed_at, duration_ms, cost_usd, attempt
FROM (${runRows(ctx, scope, true)})
ARRAY JOIN arrayConcat(if(cost_usd > 0, [('cost', cost_usd)], []),
    if(duration_ms IS NULL, [], [('duration', toFloat64(assumeNotNull(duration_ms)))])) AS m
ARRAY JOIN ['', toString(status)] AS scope`
}

/** The flags a triage row holds as decided when derived: every flag but missing_blob (blobs come and expire) and stalled (a matter of time). */
export const DECIDED_FLAGS = RUN_FLAGS.filter(
  (f): f is Exclude<RunFlag, 'missing_blob' | 'stalled'> => f !== 'missing_blob' && f !== 'stalled',
)

/**
 * Each run of the scope, and each run sharing a run_id with one (its near miss may have changed),
 * decided once: the flags that do not change with time, the checkpoint's blob_key, and when a
 * running run counts as stalled. Kept for runs that may carry a flag (any but `resumed`) or are
 * running, and replaced for runs listed here before, so a run that lost its flags is not left behind.
 */
function triageInsert(ctx: DeriveContext, scope: DeriveScope, nearMissPossible: boolean): Sql {
  const ix = runIndexNames(ctx.runsDatabase)
  const keys = scope.all
    ? null
    : sql`SELECT org, namespace, agent, run_id FROM (${dirtyKeys(ctx, scope)})
      UNION DISTINCT
      SELECT org, namespace, agent, run_id FROM ${T(ix.owners)} WHERE (org, namespace, run_id) IN (SELECT org, namespace, run_id FROM (${dirtyKeys(ctx, scope)}))`
  const inScope = keys ? sql` WHERE ${T(RUN_KEY)} IN (${keys})` : T('')
  const owners = keys ? sql`WHERE (org, namespace, run_id) IN (SELECT org, namespace, run_id FROM (${keys}))` : T('')
  const all: Needs[] = ['rs', 'counts', 'lw', 'cp', 'cw']
  const noNow = T('0')
  const decided = (f: (typeof DECIDED_FLAGS)[number]) =>
    f === 'near_miss'
      ? !nearMissPossible
        ? T("''")
        : sql`if(${T(RUN_KEY)} IN (SELECT org, namespace, agent, run_id FROM (${nearMissSql(ix, owners)})), 'near_miss', '')`
      : sql`if(${CONDITIONS[f].sql(noNow)}, ${T(`'${f}'`)}, '')`
  const flags = DECIDED_FLAGS.map(decided)
  const problem = DECIDED_FLAGS.filter((f) => f !== 'resumed')
    .map((f) => `has(flags, '${f}')`)
    .join(' OR ')
  const before = keys
    ? sql` OR ${T(RUN_KEY)} IN (SELECT org, namespace, agent, run_id FROM ${T(ix.triage)}${inScope})`
    : T('')
  return sql`INSERT INTO ${T(ix.triage)} (org, namespace, agent, run_id, seq, status, started_at, flags, blob_key, stall_at_ms)
SELECT org, namespace, agent, run_id, ${seqParam(scope)}, status, started_at, flags, blob_key, stall_at_ms FROM (
  SELECT org, namespace, agent, run_id,
      if(rs.1 = '', 'unknown', rs.1) AS status,
      if(rs.1 = '', o.first_at, rs.5) AS started_at,
      arrayFilter(x -> x != '', [${join(flags, ', ')}]) AS flags,
      if(${T(BLOB_NAMED)}, cp.4, '') AS blob_key,
      if(rs.1 = 'running', ${T(STALL_AT_MS)}, 0) AS stall_at_ms
  FROM (SELECT org, namespace, agent, run_id, ${T(all.map((n) => MERGED[n]).join(', '))}
      FROM ${T(ix.flags)} FINAL${inScope} GROUP BY org, namespace, agent, run_id) AS m
  LEFT JOIN (SELECT org, namespace, agent, run_id, min(first_at) AS first_at
      FROM ${T(ix.orphans)}${inScope} GROUP BY org, namespace, agent, run_id) AS o
    USING (org, namespace, agent, run_id)
)
WHERE ${T(problem)} OR blob_key != '' OR status = 'running'${before}`
}
