/**
 * The runs-page analytics read from the run rollup (lib/derived/): running totals kept on
 * write, so a chart over a million runs reads a few thousand rows. Serves filters made of org /
 * namespace / agent (as a prefix: org, org + namespace, or all three) and status; free text, time
 * ranges and flags need each run's own values and are answered by the direct queries
 * (analytics.ts). Each answer is the one the direct queries give for the same filter
 * (tests/analytics-rollup.test.ts compares them).
 */
import { z } from 'zod'
import { getConfig } from '../config'
import { selectRows } from '../clickhouse/query'
import { and, param, sql, trusted } from '../clickhouse/sql'
import { ROLLUP_KIND, ROLLUP_LEVEL } from '../derived/rollup-state'
import { runRollupNames, type RunRollupNames } from '../derived/names'
import { inRunKeys } from '../run-set/conditions'
import type { RunsFilter } from '../run-set/filter'
import { runKeyColumns } from '../run-set/list-row'
import { derivedReady } from '../derived/derive'
import { rowRunKey } from '../loom/identity'

export function rollupNames(): RunRollupNames {
  return runRollupNames(getConfig().databases.runs)
}

/** True once the rollup is installed and backfilled (its meta table is created last). */
export async function rollupReady(signal?: AbortSignal): Promise<boolean> {
  return derivedReady(rollupNames().meta, signal)
}

/** The rollup level that answers this filter, or null when it cannot (see the module comment). */
export function rollupLevel(f: RunsFilter): number | null {
  if (f.q !== undefined || f.from || f.to || f.flag?.length) return null
  const has = [f.org, f.namespace, f.agent].map((v) => v !== undefined)
  if (has.every((h) => !h)) return ROLLUP_LEVEL.all
  if (has[0] && !has[1] && !has[2]) return ROLLUP_LEVEL.org
  if (has[0] && has[1] && !has[2]) return ROLLUP_LEVEL.namespace
  if (has.every(Boolean)) return ROLLUP_LEVEL.agent
  return null
}

const sumRowSchema = z.object({
  kind: z.coerce.number(),
  at_text: z.string(),
  status: z.string(),
  bucket: z.coerce.number(),
  runs: z.coerce.number(),
  extra: z.coerce.number(),
})
export type RollupSumRow = z.infer<typeof sumRowSchema>

/** Every total of the filter's level and identity: started per hour and status, resumed per day, size buckets. */
export function rollupSums(f: RunsFilter, level: number, signal?: AbortSignal): Promise<RollupSumRow[]> {
  // Totals of a coarser level are kept under empty identity values.
  const conds = [
    sql`level = ${param('r_level', 'UInt8', level)}`,
    sql`org = ${param('r_org', 'String', (level >= ROLLUP_LEVEL.org ? f.org : '') ?? '')}`,
    sql`namespace = ${param('r_namespace', 'String', (level >= ROLLUP_LEVEL.namespace ? f.namespace : '') ?? '')}`,
    sql`agent = ${param('r_agent', 'String', (level >= ROLLUP_LEVEL.agent ? f.agent : '') ?? '')}`,
  ]
  if (f.status !== undefined) conds.push(sql`status = ${param('r_status', 'String', f.status)}`)
  return selectRows(
    sql`SELECT kind, toString(at) AS at_text, status, bucket, sum(runs) AS runs, sum(extra) AS extra
     FROM ${trusted(rollupNames().sums)}
     WHERE ${and(conds)}
     GROUP BY kind, at, status, bucket
     HAVING runs != 0 OR extra != 0
     ORDER BY kind, at, status, bucket`,
    sumRowSchema,
    { signal },
  )
}

export const isKind = (kind: keyof typeof ROLLUP_KIND) => (r: RollupSumRow) => r.kind === ROLLUP_KIND[kind]

/** A top run's columns, as the rollup's `top` table and the direct queries give them. */
export const rollupTopRowSchema = runKeyColumns.extend({
  goal: z.string(),
  status: z.string(),
  started_text: z.string(),
  last_begin_text: z.string(),
  completed_text: z.string().nullable(),
  duration_ms: z.coerce.number().nullable(),
  cost_usd: z.coerce.number(),
  attempt: z.coerce.number(),
})
export type RollupTopRow = z.infer<typeof rollupTopRowSchema>
/** A row of `top` as read: the answer's fields (parsing one with rollupTopRowSchema drops the rest), its version, the window's size. */
const candidateSchema = rollupTopRowSchema.extend({ version: z.string(), read: z.coerce.number() })

/**
 * The first round reads an eighth more rows than wanted (each candidate costs a key lookup in
 * `state`, and stale values are few: one per run version written since the backfill that later
 * changed); a round that keeps too few reads four times as many, up to MAX_TOP_WINDOW.
 */
const firstTopWindow = (want: number) => want + Math.max(16, Math.ceil(want / 8))
const TOP_WINDOW_GROWTH = 4
const MAX_TOP_WINDOW = 200_000

/**
 * The `want` runs over all runs (or of one status) with the highest current cost or duration, in
 * the direct query's order (value descending, then the run key), or null when the rollup cannot
 * tell within MAX_TOP_WINDOW candidates (many stale values on top). Each round finds the lowest of
 * the top `window` values of `top`, reads every row at or above it (a key range) and keeps those that
 * are their run's current version in `state` (looked up by key): every run whose current value is at
 * least that low is among them, so once `want` runs are kept (or the window held every value) the
 * answer is exact.
 */
export async function rollupTop(
  metric: 'cost' | 'duration',
  want: number,
  status: string | undefined,
  signal?: AbortSignal,
): Promise<RollupTopRow[] | null> {
  const r = rollupNames()
  const top = trusted(r.top)
  const scope = sql`metric = ${param('r_metric', 'String', metric)} AND scope = ${param('r_scope', 'String', status ?? '')}`
  for (let window = firstTopWindow(want); window <= MAX_TOP_WINDOW; window *= TOP_WINDOW_GROWTH) {
    // The window's size and lowest value (a read in key order, in small blocks so it stops soon
    // after `window` rows), then every row at or above that value: a range of the sorting key.
    const cands = await selectRows(
      sql`WITH (SELECT (count(), max(neg_value)) FROM (
               SELECT neg_value FROM ${top} WHERE ${scope}
               ORDER BY neg_value LIMIT ${param('r_window', 'UInt32', window)})) AS head
       SELECT org, namespace, agent, run_id, toString(version) AS version, goal, toString(status) AS status,
         toString(started_at) AS started_text, toString(last_begin_at) AS last_begin_text,
         if(completed_at IS NULL, NULL, toString(completed_at)) AS completed_text, duration_ms, cost_usd, attempt,
         tupleElement(head, 1) AS read
       FROM ${top}
       WHERE ${scope} AND neg_value <= tupleElement(head, 2)
       ORDER BY neg_value, org, namespace, agent, run_id
       SETTINGS max_block_size = 1024`,
      candidateSchema,
      { signal },
    )
    const current = await currentVersions(cands, signal)
    const kept: RollupTopRow[] = []
    const seen = new Set<string>()
    for (const c of cands) {
      const key = rowRunKey(c)
      if (kept.length === want || seen.has(key) || current.get(key) !== c.version) continue
      seen.add(key)
      kept.push(rollupTopRowSchema.parse(c))
    }
    if ((cands[0]?.read ?? 0) < window || kept.length === want) return kept
  }
  return null
}

/** The current run-row version of each run among `rows`, from `state` (runs without a run row left out). */
async function currentVersions(
  rows: { org: string; namespace: string; agent: string; run_id: string }[],
  signal?: AbortSignal,
) {
  if (!rows.length) return new Map<string, string>()
  const found = await selectRows(
    sql`SELECT org, namespace, agent, run_id, toString(argMax(version, seq)) AS version
     FROM ${trusted(rollupNames().state)}
     WHERE ${inRunKeys('r_keys', rows)}
     GROUP BY org, namespace, agent, run_id
     HAVING argMax(has_row, seq) = 1`,
    z.object({ org: z.string(), namespace: z.string(), agent: z.string(), run_id: z.string(), version: z.string() }),
    { signal },
  )
  return new Map(found.map((r) => [rowRunKey(r), r.version]))
}
