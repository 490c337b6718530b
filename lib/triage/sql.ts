/**
 * The triage rules (lib/triage/flags.ts) as SQL over the merged per-run columns of the run index's
 * flags table (lib/derived/ddl.ts): the form a flag filter over many runs uses, and the form the
 * derivation stores each run's decided flags with (lib/derived/statements.ts). lib/triage/decide.ts
 * is the same rules per run in TypeScript; tests/run-flags-parity.test.ts holds the forms to the
 * same answers.
 *
 * `resumed` repeats what lib/resume/detect.ts calls a process resume, per checkpoint block
 * (identity): attempt > 1, a write by another process than the block's previous agent write, or an
 * agent write after a gap longer than max(8 × the block's median agent interval, 60 s).
 */
import { sql, trusted, type Sql } from '../clickhouse/sql'
import { GAP_FACTOR, MIN_GAP_MS } from '../resume/rows'
import { CRASH_LOOP_ATTEMPTS, NEAR_LIMIT_RATIO, STALL_FACTOR, STALL_MIN_MS, type RunFlag } from './flags'

const ms = (e: string) => `toUnixTimestamp64Milli(${e})`

/** Checkpoint writes (identity, at, version, operator, trace; `cw` is sorted) grouped per block, each in version order. */
const BLOCKS = 'arraySplit((x, c) -> c, cw, arrayMap((x, i) -> i = 1 OR x.1 != cw[i - 1].1, cw, arrayEnumerate(cw)))'

/** Intervals between consecutive agent writes of block `g`, clamped at 0. */
const intervals = (g: string) =>
  `arrayMap(d -> greatest(d, 0), arrayPopFront(arrayDifference(arrayMap(x -> ${ms('x.2')}, arrayFilter(x -> x.4 = 0, ${g})))))`

const medianOf = (xs: string) => `if(empty(${xs}), 0, arrayReduce('quantileExactInclusive(0.5)', ${xs}))`

/** True when block `g` holds a process resume: a new process, or a long gap before an agent write. */
const blockResumed = (g: string) => {
  const agents = `arrayFilter(x -> x.4 = 0, ${g})`
  const newProcess = `arrayExists((a, b) -> a.5 != b.5, arrayPopBack(${agents}), arrayPopFront(${agents}))`
  const threshold = `greatest(${GAP_FACTOR} * ${medianOf(intervals(g))}, ${MIN_GAP_MS})`
  const first = `arrayFirstIndex(x -> x.4 = 0, ${g})`
  const longGap = `arrayExists((x, i) -> x.4 = 0 AND ${first} > 0 AND i > ${first} AND ${ms('x.2')} - ${ms(`${g}[i - 1].2`)} > ${threshold}, ${g}, arrayEnumerate(${g}))`
  return `(${newProcess} OR ${longGap})`
}

/**
 * When a running run counts as stalled (ms since the epoch): its last activity (last write, or its
 * start) plus max(STALL_MIN_MS, STALL_FACTOR × its median agent checkpoint interval). Stalled at
 * `now` means running and now past this moment; the derivation stores it so a read only compares.
 */
export const STALL_AT_MS = `(greatest(${ms('lw')}, ${ms('rs.5')}) + greatest(${STALL_MIN_MS}, ${STALL_FACTOR} * ${medianOf(
  `arrayFlatten(arrayMap(g -> ${intervals('g')}, ${BLOCKS}))`,
)}))`

/** The merged columns a condition reads. */
export type Needs = 'rs' | 'counts' | 'lw' | 'cp' | 'cw'

/**
 * Each flag (but near_miss, which compares a run with others) as a condition over the merged
 * per-run columns; `now` is the bound time. missing_blob reads a `blobs_present` table expression
 * (org, namespace, agent, blob_key) the statement has to provide.
 */
export const CONDITIONS: Record<Exclude<RunFlag, 'near_miss'>, { sql: (now: Sql) => Sql; needs: Needs[] }> = {
  resumed: {
    sql: () => trusted(`(rs.2 > 1 OR arrayExists(g -> ${blockResumed('g')}, ${BLOCKS}))`),
    needs: ['rs', 'cw'],
  },
  near_limit: { sql: () => trusted(`(cp.3 = 0 AND cp.2 > 0 AND cp.1 >= ${NEAR_LIMIT_RATIO} * cp.2)`), needs: ['cp'] },
  tie: { sql: () => trusted('(n_rows > n_keys)'), needs: ['counts'] },
  missing_blob: {
    sql: () =>
      trusted(
        `(${BLOB_NAMED} AND (org, namespace, agent, cp.4) NOT IN (SELECT org, namespace, agent, blob_key FROM blobs_present))`,
      ),
    needs: ['cp'],
  },
  crash_loop: {
    sql: () => trusted(`(rs.2 >= ${CRASH_LOOP_ATTEMPTS} AND rs.1 NOT IN ('succeeded', ''))`),
    needs: ['rs'],
  },
  stalled: {
    sql: (now) => sql`(rs.1 = 'running' AND toUnixTimestamp64Milli(${now}) > ${trusted(STALL_AT_MS)})`,
    needs: ['rs', 'lw', 'cw'],
  },
}

/** The run's current checkpoint names a blob (whether the blob is there is decided when read: blobs expire). */
export const BLOB_NAMED = "cp.3 = 0 AND cp.4 != ''"

/** How each merged column is read from the flags table's states. */
export const MERGED: Record<Needs, string> = {
  rs: 'argMaxMerge(run_state) AS rs',
  counts: 'sum(wm_rows) AS n_rows, uniqExactMerge(wm_keys) AS n_keys',
  lw: 'max(last_write) AS lw',
  // An empty state reads as (0, 0, 0, ''): char_limit 0 and no blob_key, so no flag holds for it.
  cp: 'argMaxMerge(checkpoint_latest) AS cp',
  cw: 'arraySort(x -> (x.1, x.3, x.2), groupArrayMerge(checkpoint_writes)) AS cw',
}

export const needsOf = (flags: Exclude<RunFlag, 'near_miss'>[]) =>
  new Set<Needs>(flags.flatMap((f) => CONDITIONS[f].needs))

/**
 * Runs (org, namespace, agent, run_id) with a checkpoint under another agent, user_id or session_id
 * of their org and namespace than their own identity: the latest run row's, or for a run without
 * one, any of its own checkpoints'. `where` narrows the owners table (org, namespace, run_id).
 * Only run_ids with two or more identities can hold one (a run's own identity is always there).
 * `tables`: the run index's owners and flags tables.
 */
export function nearMissSql(tables: { owners: string; flags: string }, where: Sql): Sql {
  const candidates = sql`SELECT org, namespace, run_id, a AS agent, cps FROM (
      SELECT org, namespace, run_id, groupArrayIf((agent, user_id, session_id), hc = 1) AS cps, groupUniqArray(agent) AS agents
      FROM (SELECT org, namespace, run_id, agent, user_id, session_id, max(has_checkpoint) AS hc
        FROM ${trusted(tables.owners)} ${where}
        GROUP BY org, namespace, run_id, agent, user_id, session_id)
      GROUP BY org, namespace, run_id
      HAVING count() >= 2 AND length(cps) >= 1)
    ARRAY JOIN agents AS a`
  return sql`WITH cand AS (${candidates})
    SELECT c.org AS org, c.namespace AS namespace, c.agent AS agent, c.run_id AS run_id
    FROM cand AS c
    LEFT JOIN (SELECT org, namespace, agent, run_id, argMaxMerge(run_state) AS rs FROM ${trusted(tables.flags)} FINAL
        WHERE (org, namespace, agent, run_id) IN (SELECT org, namespace, agent, run_id FROM cand)
        GROUP BY org, namespace, agent, run_id) AS f
      ON c.org = f.org AND c.namespace = f.namespace AND c.agent = f.agent AND c.run_id = f.run_id
    WHERE if(f.rs.1 != '',
      arrayExists(x -> x != (c.agent, f.rs.3, f.rs.4), c.cps),
      arrayExists(x -> x.1 != c.agent, c.cps) OR countEqual(arrayMap(x -> x.1, c.cps), c.agent) >= 2)`
}
