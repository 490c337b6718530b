/**
 * Run flags (lib/triage/flags.ts) from the run index's triage tables (lib/derived/ddl.ts),
 * for the badges of listed runs and for `flag=` filters.
 *
 * The rules (lib/triage/rules.ts, each written once) in two compiled forms: SQL conditions
 * (lib/triage/sql.ts) where a flag filter selects among many runs, and lib/triage/decide.ts over each
 * run's merged columns where the flags of given runs are looked up (a list page, a run header, a
 * scan's window). The lookup's statement has one lambda instead of a dozen, and on small data a
 * statement's cost is mostly planning its expressions.
 */
import { TupleParam } from '@clickhouse/client'
import { z } from 'zod'
import { selectRows } from '../clickhouse/query'
import { join, param, sql, trusted, type Sql } from '../clickhouse/sql'
import { toChTime } from '../tables/time'
import { getConfig } from '../config'
import { runFragments } from '../server/read-cache'
import { flagIndexNames } from '../derived/names'
import { source, tableNames } from '../loom/tables'
import { CRASH_LOOP_ATTEMPTS, RUN_FLAGS, STALL_MIN_MS, type RunFlag } from '../triage/flags'
import { CONDITIONS, MERGED, needsOf, nearMissSql as nearMissRunsSql, type Needs } from '../triage/sql'
import { decideFlags, type RunTriage } from '../triage/decide'
import { toSqlText } from '../triage/expr-sql'
import { RULES } from '../triage/rules'
import { CH_TIME_TYPE, identityConditions, inAgentKeys, inRunKeys, where } from './conditions'
import type { IdentityFilter } from './filter'
import { tableExists } from '../clickhouse/schema-presence'
import { rowRunKey } from '../loom/identity'
import { ensureFresh } from '../derived/derive'

/** A run's key. */
export type FlaggedRun = {
  org: string
  namespace: string
  agent: string
  run_id: string
}

export const runKey = rowRunKey

const ms = (e: string) => `toUnixTimestamp64Milli(${e})`

/** The moment `stalled` is judged at, bound as `now`. */
function nowParam(now: Date): Sql {
  return param('now', CH_TIME_TYPE, toChTime(now))
}

/**
 * The (org, namespace, agent, blob_key) of every blob there now (none when Loom has no blob table);
 * `narrow` (a condition on the blob table's sorting-key prefix) keeps it to the agents a lookup asks about.
 */
export async function presentBlobsSql(narrow?: Sql): Promise<Sql> {
  const blobs = tableNames().contextBlobs
  if (!(await tableExists(blobs)))
    return trusted("SELECT '' AS org, '' AS namespace, '' AS agent, '' AS blob_key WHERE 0")
  return sql`SELECT org, namespace, agent, blob_key FROM ${trusted(source(blobs))}${narrow ? sql` WHERE ${narrow}` : trusted('')}`
}

/** One row per run `conditions` select, with the merged columns `needs` names (both forms of the rules read these). */
function mergedPerRunSql(needs: Set<Needs>, conditions: Sql[]): Sql {
  const ix = flagIndexNames(getConfig().databases.runs)
  return sql`SELECT org, namespace, agent, run_id, ${trusted([...needs].map((n) => MERGED[n]).join(', '))}
      FROM ${trusted(ix.flags)} FINAL ${where(conditions)}
      GROUP BY org, namespace, agent, run_id`
}

/**
 * A run with more checkpoint writes than this has its flags decided by the engine (the SQL
 * conditions), so that a page of long-lived runs does not send every write of each one.
 */
export const WRITES_DECIDED_IN_NODE = 1_000

/**
 * Per run: the merged triage columns lib/triage/decide.ts decides `flags` from (near_miss
 * excluded), over the runs `conditions` select. Columns no wanted flag needs come back empty.
 */
async function triageColumnsSql(
  flags: Exclude<RunFlag, 'near_miss'>[],
  conditions: Sql[],
  blobScope?: Sql,
): Promise<Sql> {
  const needs = needsOf(flags)
  const pick = (need: Needs, columns: string, empty: string) => (needs.has(need) ? columns : empty)
  const blob = flags.includes('missing_blob')
    ? sql`(org, namespace, agent, cp.4) NOT IN (${await presentBlobsSql(blobScope)})`
    : trusted('0')
  return sql`SELECT org, namespace, agent, run_id,
      ${trusted(pick('rs', 'rs.1 AS status, rs.2 AS attempt, toUnixTimestamp64Milli(rs.5) AS started_ms', "'' AS status, 0 AS attempt, 0 AS started_ms"))},
      ${trusted(pick('cw', `if(length(cw) <= ${WRITES_DECIDED_IN_NODE}, arrayMap(x -> (x.1, toUnixTimestamp64Milli(x.2), x.4, x.5), cw), []) AS writes, length(cw) AS write_count`, '[] AS writes, 0 AS write_count'))},
      ${trusted(pick('cp', 'cp.1 AS chars, cp.2 AS char_limit, cp.3 AS is_deleted, cp.4 AS blob_key', "0 AS chars, 0 AS char_limit, 0 AS is_deleted, '' AS blob_key"))},
      ${trusted(pick('counts', 'n_rows, n_keys', '0 AS n_rows, 0 AS n_keys'))},
      ${trusted(pick('lw', 'toUnixTimestamp64Milli(lw) AS lw_ms', '0 AS lw_ms'))},
      ${blob} AS blob_missing
    FROM (${mergedPerRunSql(needs, conditions)})`
}

const triageRowSchema = z.object({
  org: z.string(),
  namespace: z.string(),
  agent: z.string(),
  run_id: z.string(),
  status: z.string(),
  attempt: z.coerce.number(),
  started_ms: z.coerce.number(),
  // (identity hash, time in ms, operator 0/1, process hash): 64-bit values arrive as strings.
  writes: z.array(z.tuple([z.coerce.string(), z.coerce.number(), z.coerce.number(), z.coerce.string()])),
  write_count: z.coerce.number(),
  chars: z.coerce.number(),
  char_limit: z.coerce.number(),
  is_deleted: z.coerce.number(),
  blob_key: z.string(),
  n_rows: z.coerce.number(),
  n_keys: z.coerce.number(),
  lw_ms: z.coerce.number(),
  blob_missing: z.coerce.number(),
})

function toTriage(r: z.infer<typeof triageRowSchema>): RunTriage {
  return {
    status: r.status,
    attempt: r.attempt,
    startedMs: r.started_ms,
    writes: r.writes.map(([identity, atMs, operator, trace]) => ({ identity, atMs, operator: operator === 1, trace })),
    checkpoint: { chars: r.chars, charLimit: r.char_limit, isDeleted: r.is_deleted === 1, blobKey: r.blob_key },
    rows: r.n_rows,
    keys: r.n_keys,
    lastWriteMs: r.lw_ms,
    blobMissing: r.blob_missing === 1,
  }
}

/** Per run: one 0/1 column per flag in `flags` (near_miss excluded), over the runs `conditions` select. */
async function flagColumnsSql(flags: Exclude<RunFlag, 'near_miss'>[], conditions: Sql[], now: Date): Promise<Sql> {
  const withBlobs = flags.includes('missing_blob')
    ? sql`WITH blobs_present AS (${await presentBlobsSql()}) `
    : trusted('')
  const columns = join(
    flags.map((f) => sql`, ${CONDITIONS[f].sql(nowParam(now))} AS ${trusted(`f_${f}`)}`),
    '',
  )
  return sql`${withBlobs}SELECT org, namespace, agent, run_id${columns}
    FROM (${mergedPerRunSql(needsOf(flags), conditions)})`
}

/** nearMissSql over this installation's run index; `conditions` narrow the owners table. */
function nearMissSql(conditions: Sql[]): Sql {
  return nearMissRunsSql(flagIndexNames(getConfig().databases.runs), where(conditions))
}

/**
 * The (org, namespace, run_id) a near miss is possible for (lib/derived/statements.ts): a small set,
 * so a `near_miss` filter checks these runs instead of every run it passes. `where` narrows it.
 */
export function nearMissCandidatesSql(narrow?: Sql): Sql {
  const ix = trusted(flagIndexNames(getConfig().databases.runs).candidates)
  const w = narrow ? sql` AND ${narrow}` : trusted('')
  return sql`SELECT org, namespace, run_id FROM ${ix} WHERE kind = 'shared'${w}
    UNION ALL
    SELECT org, namespace, run_id FROM ${ix} WHERE kind = 'arrival'${w}
    GROUP BY org, namespace, run_id HAVING uniqExact(agent, user_id, session_id) >= 2`
}

/**
 * A subquery of the runs (org, namespace, agent, run_id) that carry every flag in `flags` at `now`,
 * within the filter's org / namespace / agent. Needs the run index.
 */
export async function flagFilterSql(flags: readonly RunFlag[], filter: IdentityFilter, now: Date): Promise<Sql> {
  await ensureFresh()
  const ident = identityConditions(filter)
  // The owners table is per run_id across agents: only org and namespace narrow it.
  const owners = identityConditions({ org: filter.org, namespace: filter.namespace })
  const others = flags.filter((f): f is Exclude<RunFlag, 'near_miss'> => f !== 'near_miss')
  const parts: Sql[] = []
  if (others.length) {
    parts.push(sql`SELECT org, namespace, agent, run_id FROM (${await flagColumnsSql(others, ident, now)})
      WHERE ${trusted(others.map((f) => `f_${f}`).join(' AND '))}`)
  }
  if (flags.includes('near_miss')) parts.push(nearMissSql(owners))
  if (parts.length === 1) return parts[0]
  return join(
    parts.map((p, i) =>
      i === 0 ? sql`SELECT org, namespace, agent, run_id FROM (${p})` : sql`(org, namespace, agent, run_id) IN (${p})`,
    ),
    ' WHERE ',
  )
}

/** Runs that carry every flag of the filter: a condition on the run key columns. */
export async function flaggedRunsCondition(flags: readonly RunFlag[], filter: IdentityFilter, now: Date): Promise<Sql> {
  return sql`(org, namespace, agent, run_id) IN (${await flagFilterSql(flags, filter, now)})`
}

/**
 * Settings for a query that holds flagFilterSql: the per-run tables are sorted by the keys they
 * are grouped by, so the groups stream in order instead of filling a hash table.
 */
export const FLAG_QUERY_SETTINGS = { optimize_aggregation_in_order: 1 }

const keySchema = z.object({ org: z.string(), namespace: z.string(), agent: z.string(), run_id: z.string() })
const flagRowSchema = keySchema.catchall(z.coerce.number())

/**
 * Row pre-filters on the run index (lib/run-set/index-scan.ts): any run carrying one of the flags
 * has a row (its latest version) that passes, so they narrow the rows a flag-filtered list has to
 * check without losing one. crash_loop and stalled are decided in part by the row's own status,
 * attempt and start; near_miss, near_limit, missing_blob and tie by the small sets of runs that could
 * carry them (lib/derived/statements.ts). `now`: the moment `stalled` is judged at.
 */
export async function flagRowPrefilters(flags: readonly RunFlag[], now: Date): Promise<Sql[]> {
  const out: Sql[] = []
  if (flags.includes('crash_loop'))
    out.push(trusted(`(kind = 0 AND attempt >= ${CRASH_LOOP_ATTEMPTS} AND status != 'succeeded')`))
  // A run is stalled no sooner than STALL_MIN_MS after it started (its last activity is at least its start).
  if (flags.includes('stalled')) {
    out.push(
      sql`(kind = 0 AND status = 'running' AND ${trusted(ms('started_at'))} < toUnixTimestamp64Milli(${nowParam(now)}) - ${trusted(String(STALL_MIN_MS))})`,
    )
  }
  if (flags.includes('near_miss')) out.push(sql`(org, namespace, run_id) IN (${nearMissCandidatesSql()})`)
  const ix = flagIndexNames(getConfig().databases.runs)
  const marked = (kind: RunFlag, also: Sql = trusted('')) =>
    sql`(org, namespace, agent, run_id) IN (SELECT org, namespace, agent, run_id FROM ${trusted(ix.candidates)} WHERE kind = ${trusted(`'${kind}'`)}${also})`
  if (flags.includes('near_limit')) out.push(marked('near_limit'))
  if (flags.includes('tie')) out.push(marked('tie'))
  // Runs that named a blob_key which is not (or no longer) there.
  if (flags.includes('missing_blob'))
    out.push(marked('missing_blob', sql` AND (org, namespace, agent, detail) NOT IN (${await presentBlobsSql()})`))
  return out
}

/** Flags whose pre-filter leaves few rows whatever the data. */
const SPARSE: readonly RunFlag[] = ['near_miss', 'crash_loop', 'near_limit', 'missing_blob', 'tie']

/** Whether a pre-filter leaves few rows whatever the data (the scan can start with a page-sized window). */
export function sparsePrefilter(flags: readonly RunFlag[]): boolean {
  return flags.some((f) => SPARSE.includes(f))
}

/**
 * Flags a list row decides on its own: crash_loop is the latest run row's attempt and status
 * (the same argMax by version as the triage table's run state), so it needs no lookup. A check
 * over the list query's latest-row tuple (status, attempt and kind at `at`), or null.
 */
export function flagRowCheck(
  flags: readonly RunFlag[],
  at: { status: string; attempt: string; kind: string },
): Sql | null {
  if (!flags.includes('crash_loop')) return null
  return trusted(`(${at.kind} = 0 AND ${toSqlText(RULES.crash_loop, { status: at.status, attempt: at.attempt })})`)
}

/** The flags a list row cannot decide on its own (looked up per window). */
export function flagsToLookUp(flags: readonly RunFlag[]): RunFlag[] {
  return flags.filter((f) => f !== 'crash_loop')
}

/**
 * Which of the given runs carry `wanted` flags, keyed by runKey (each run's list holds only flags
 * from `wanted`, in RUN_FLAGS order). Key lookups in the triage tables, computing only what those
 * flags need.
 */
async function flagsAmong(
  runs: FlaggedRun[],
  wanted: readonly RunFlag[],
  signal?: AbortSignal,
  now = new Date(),
): Promise<Map<string, RunFlag[]>> {
  const out = new Map<string, RunFlag[]>()
  for (const r of runs) out.set(runKey(r), [])
  if (runs.length === 0) return out
  const ids = [...new Map(runs.map((r) => [JSON.stringify([r.org, r.namespace, r.run_id]), idOf(r)])).values()]
  const others = notNearMiss(wanted)
  const [rows, near] = await Promise.all([
    others.length
      ? selectRows(
          await triageColumnsSql(others, [inRunKeys('keys', runs)], inAgentKeys('blob_agents', runs)),
          triageRowSchema,
          {
            signal,
            settings: FLAG_QUERY_SETTINGS,
          },
        )
      : [],
    wanted.includes('near_miss') ? nearMissAmong(ids, signal) : [],
  ])
  await decideRows(rows, others, out, now, signal)
  const nearMiss = new Set(near.map(runKey))
  for (const [key, set] of out) {
    if (nearMiss.has(key)) set.push('near_miss')
    set.sort((a, b) => RUN_FLAGS.indexOf(a) - RUN_FLAGS.indexOf(b))
  }
  return out
}

const notNearMiss = (flags: readonly RunFlag[]) =>
  flags.filter((f): f is Exclude<RunFlag, 'near_miss'> => f !== 'near_miss')

/** Adds to `out` the flags among `others` that each triage row's run carries at `now`. */
async function decideRows(
  rows: z.infer<typeof triageRowSchema>[],
  others: Exclude<RunFlag, 'near_miss'>[],
  out: Map<string, RunFlag[]>,
  now: Date,
  signal?: AbortSignal,
): Promise<void> {
  const long: FlaggedRun[] = []
  for (const row of rows) {
    if (row.write_count > WRITES_DECIDED_IN_NODE) long.push(row)
    else out.get(runKey(row))?.push(...decideFlags(toTriage(row), now.getTime(), others))
  }
  if (long.length) {
    // Runs with a long checkpoint history: the engine decides, rather than sending every write here.
    const decided = await selectRows(await flagColumnsSql(others, [inRunKeys('long', long)], now), flagRowSchema, {
      signal,
      settings: FLAG_QUERY_SETTINGS,
    })
    for (const row of decided) out.get(runKey(row))?.push(...others.filter((f) => row[`f_${f}`] === 1))
  }
}

const idSchema = z.object({ org: z.string(), namespace: z.string(), run_id: z.string() })
const idOf = (r: FlaggedRun) => new TupleParam([r.org, r.namespace, r.run_id])
const inIds = (values: TupleParam[]) =>
  sql`(org, namespace, run_id) IN ${param('ids', 'Array(Tuple(String, String, String))', values)}`

/** The runs among `ids` (org, namespace, run_id) that hold a near miss: the candidates first, then the exact check on those. */
async function nearMissAmong(ids: TupleParam[], signal?: AbortSignal) {
  const candidates = await selectRows(nearMissCandidatesSql(inIds(ids)), idSchema, { signal })
  if (candidates.length === 0) return []
  // A run listed twice (shared and arrivals, or unmerged rows) only repeats a value of the IN list.
  const few = candidates.map((c) => new TupleParam([c.org, c.namespace, c.run_id]))
  return selectRows(nearMissSql([inIds(few)]), keySchema, { signal, settings: FLAG_QUERY_SETTINGS })
}

/** The run's flags as a list page kept them a moment ago (see flagsOfRuns), if they are: a copy. */
export function keptRunFlags(run: FlaggedRun): RunFlag[] | undefined {
  const kept = runFragments<RunFlag[]>('flags')?.peek(run)
  return kept && [...kept]
}

/**
 * What decides a few runs' flags (one run's for the run header, both runs' for a comparison), as
 * two queries another statement can carry: each run's merged triage row, and the near-miss
 * candidate rows naming their run_ids. `runFlagsFrom` decides a run's from its own rows, as
 * flagsOfRuns does; settings FLAG_QUERY_SETTINGS. A reader asks `keptRunFlags` first: flags a list
 * kept a moment ago need neither.
 */
export async function runFlagsQueries(runs: readonly FlaggedRun[]): Promise<{ rows: Sql; candidates: Sql }> {
  return {
    rows: await triageColumnsSql(
      notNearMiss(RUN_FLAGS),
      [inRunKeys('flag_keys', runs)],
      inAgentKeys('flag_blob_agents', runs),
    ),
    candidates: nearMissCandidatesSql(inIds(runs.map(idOf))),
  }
}

/**
 * The run's flags from what runFlagsQueries read (its triage rows as JSON, how many candidate rows),
 * in RUN_FLAGS order: the same flags flagsOfRuns gives (one more statement only for a long
 * checkpoint history, or to check a near-miss candidate exactly).
 */
export async function runFlagsFrom(
  run: FlaggedRun,
  read: { rows: string[]; nearMissCandidates: number },
  signal?: AbortSignal,
  now = new Date(),
): Promise<RunFlag[]> {
  const flags: RunFlag[] = []
  const out = new Map([[runKey(run), flags]])
  const rows = read.rows.map((json) => triageRowSchema.parse(JSON.parse(json)))
  await decideRows(rows, notNearMiss(RUN_FLAGS), out, now, signal)
  if (read.nearMissCandidates > 0) {
    const exact = await selectRows(nearMissSql([inIds([idOf(run)])]), keySchema, {
      signal,
      settings: FLAG_QUERY_SETTINGS,
    })
    if (exact.some((r) => runKey(r) === runKey(run))) flags.push('near_miss')
  }
  return RUN_FLAGS.filter((f) => flags.includes(f))
}

/**
 * The flags of each given run, keyed by runKey. `indexed`: the run index is installed (without it
 * flags are not known, and every run gets an empty list).
 */
export async function flagsOfRuns(
  runs: FlaggedRun[],
  indexed: boolean,
  signal?: AbortSignal,
  /** The time `stalled` is judged at; when given, nothing kept is used (it may be another time). */
  now?: Date,
  /** Flags already known to hold for every one of `runs` (a flag filter they passed): not looked up again. */
  known: readonly RunFlag[] = [],
): Promise<Map<string, RunFlag[]>> {
  if (runs.length === 0 || !indexed) return new Map()
  await ensureFresh()
  const kept = now === undefined ? runFragments<RunFlag[]>('flags') : null
  // A run's whole flag set is kept a moment for the other pages, filters and headers showing it.
  const found = kept
    ? await kept.many(
        runs,
        (missing) => flagsAmong(missing, RUN_FLAGS, signal),
        () => [],
      )
    : await flagsAmong(
        runs,
        RUN_FLAGS.filter((f) => !known.includes(f)),
        signal,
        now,
      )
  // A new list per run (a kept one is shared), with the known flags, in RUN_FLAGS order.
  return new Map([...found].map(([key, set]) => [key, RUN_FLAGS.filter((f) => set.includes(f) || known.includes(f))]))
}

/** The runs among `runs` that carry every flag in `flags` (keys as runKey). */
export async function runsCarrying(
  runs: FlaggedRun[],
  flags: readonly RunFlag[],
  signal?: AbortSignal,
  now = new Date(),
): Promise<Set<string>> {
  await ensureFresh()
  const found = await flagsAmong(runs, flags, signal, now)
  return new Set([...found].filter(([, set]) => flags.every((f) => set.includes(f))).map(([key]) => key))
}
