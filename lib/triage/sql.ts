/**
 * The triage rules (lib/triage/rules.ts) as SQL over the merged per-run columns of the run index's
 * flags table (lib/derived/ddl.ts): the form a flag filter over many runs uses, and the form the
 * derivation stores each run's decided flags with (lib/derived/statements.ts). Compiled from the
 * same definitions as the per-run decisions of lib/triage/decide.ts.
 */
import { sql, trusted, type Sql } from '../clickhouse/sql'
import { needsOf as needsOfExpr, type Needs } from './expr'
import { toSql, toSqlText } from './expr-sql'
import { BLOB_NAMED as BLOB_NAMED_RULE, RULES, STALL_AT, type RuleFlag } from './rules'

export type { Needs }

/**
 * When a running run counts as stalled (ms since the epoch; rules.ts says how). Stalled at `now`
 * means running and now past this moment; the derivation stores it so a read only compares.
 */
export const STALL_AT_MS = `(${toSqlText(STALL_AT)})`

/**
 * Each flag (but near_miss, which compares a run with others) as a condition over the merged
 * per-run columns, and the columns it reads; `now` is the bound time. missing_blob reads a
 * `blobs_present` table expression (org, namespace, agent, blob_key) the statement has to provide.
 */
export const CONDITIONS = Object.fromEntries(
  Object.entries(RULES).map(([f, rule]) => [f, { sql: toSql(rule), needs: [...needsOfExpr(rule)] }]),
) as Record<RuleFlag, { sql: (now: Sql) => Sql; needs: Needs[] }>

/** The run's current checkpoint names a blob (whether the blob is there is decided when read: blobs expire). */
export const BLOB_NAMED = toSqlText(BLOB_NAMED_RULE)

/** How each merged column is read from the flags table's states. */
export const MERGED: Record<Needs, string> = {
  rs: 'argMaxMerge(run_state) AS rs',
  counts: 'sum(wm_rows) AS n_rows, uniqExactMerge(wm_keys) AS n_keys',
  lw: 'max(last_write) AS lw',
  // An empty state reads as (0, 0, 0, ''): char_limit 0 and no blob_key, so no flag holds for it.
  cp: 'argMaxMerge(checkpoint_latest) AS cp',
  cw: 'arraySort(x -> (x.1, x.3, x.2), groupArrayMerge(checkpoint_writes)) AS cw',
}

export const needsOf = (flags: RuleFlag[]) => new Set<Needs>(flags.flatMap((f) => CONDITIONS[f].needs))

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
