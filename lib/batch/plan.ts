import { TupleParam } from '@clickhouse/client'
import { z } from 'zod'
import { selectRows } from '../clickhouse/query'
import { join, param, sql, trusted, type Sql } from '../clickhouse/sql'
import { chTimeToIso, toChTime } from '../clickhouse/time'
import { AppError } from '../errors'
import { versionString } from '../loom/identity'
import { source, tableNames } from '../loom/tables'
import { decodeCursor, type RunsCursor } from '../api/cursor'
import type { RunSummary } from '../api/types'
import { listRuns } from '../queries/runs'
import type { RunsFilter } from '../run-set/filter'
import { CH_TIME_TYPE } from '../run-set/conditions'
import { runIdentityColumns } from '../run-set/list-row'
import { tableExists } from '../queries/schema-presence'
import { BATCH_MAX_RUNS, type BatchRunKey } from './schema'
import type { BatchRequestShape } from './token'
import type { BatchItem } from './types'
import { runKeyText } from '../loom/identity'

/** One page holds the whole batch: a next page means the filter matches too many runs. */
const PAGE = BATCH_MAX_RUNS

/**
 * The runs the filter matches, in list order, through the runs list itself (so a batch sees exactly
 * the runs the page shows). Refused when over the cap: at most cap + 1 runs are read to tell.
 */
export async function matchedRuns(filter: RunsFilter, only: BatchRunKey[] | undefined, signal?: AbortSignal): Promise<RunSummary[]> {
  const runs: RunSummary[] = []
  let cursor: RunsCursor | undefined
  for (;;) {
    // The plan needs the runs and their checkpoints, not their flags (a flag filter still applies).
    const page = await listRuns({ filter, cursor, limit: PAGE, signal, flags: false, flagScan: 'exhaustive' })
    runs.push(...page.runs)
    if (!page.nextCursor) break
    if (runs.length >= BATCH_MAX_RUNS) {
      throw new AppError(
        'invalid',
        `filter matches more than ${BATCH_MAX_RUNS.toLocaleString('en-US')} runs (counted ${(BATCH_MAX_RUNS + 1).toLocaleString('en-US')} before stopping); a batch takes at most ${BATCH_MAX_RUNS.toLocaleString('en-US')}: narrow the filter`,
        { details: { field: 'filter', count: BATCH_MAX_RUNS + 1 } },
      )
    }
    cursor = decodeCursor(page.nextCursor) ?? undefined
    if (!cursor) break
  }
  if (runs.length > BATCH_MAX_RUNS) {
    throw new AppError('invalid', `filter matches ${runs.length.toLocaleString('en-US')} runs; a batch takes at most ${BATCH_MAX_RUNS.toLocaleString('en-US')}: narrow the filter`, {
      details: { field: 'filter', count: runs.length },
    })
  }
  if (!only) return runs
  const wanted = new Set(only.map(runKeyText))
  return runs.filter((r) => wanted.has(runKeyText(r)))
}

/** The block `blockKey` of every run, under the run's own identity: the whole working-memory sorting key. */
function blocksOf(runs: RunSummary[], blockKey: string): Sql {
  const keys = runs.map((r) => new TupleParam([r.org, r.namespace, r.agent, r.userId, r.sessionId, r.runId]))
  return sql`(org, namespace, agent, user_id, session_id, run_id) IN ${param('keys', 'Array(Tuple(String, String, String, String, String, String))', keys)} AND block_key = ${param('block_key', 'String', blockKey)}`
}

const identityKey = (r: { org: string; namespace: string; agent: string; user_id: string; session_id: string; run_id: string }) =>
  JSON.stringify([r.org, r.namespace, r.agent, r.user_id, r.session_id, r.run_id])

const latestRowSchema = runIdentityColumns.extend({
  version: versionString,
  is_deleted: z.coerce.number(),
  updated_at: z.string().transform(chTimeToIso),
})

const candidateSchema = latestRowSchema.pick({ org: true, namespace: true, agent: true, user_id: true, session_id: true, run_id: true }).extend({
  version: versionString,
})

type LatestRow = { version: string; is_deleted: number }

/**
 * The block's latest row for every run. The runs list already carries each run's checkpoint (the
 * row FINAL returns, from the run index or working memory), preferring the run's own user and
 * session: for `checkpoint` that is the answer, with no further query. Other blocks: one query
 * keyed by the sorting-key prefix.
 */
async function latestRows(runs: RunSummary[], blockKey: string, signal?: AbortSignal): Promise<Map<string, LatestRow>> {
  if (blockKey === 'checkpoint') {
    const out = new Map<string, LatestRow>()
    for (const r of runs) {
      const c = r.checkpoint
      if (!c || c.userId !== r.userId || c.sessionId !== r.sessionId) continue
      out.set(identityKey({ ...r, user_id: r.userId, session_id: r.sessionId, run_id: r.runId }), { version: c.version, is_deleted: c.isDeleted ? 1 : 0 })
    }
    return out
  }
  const rows = await selectRows(
    sql`SELECT org, namespace, agent, user_id, session_id, run_id, version, is_deleted, toString(updated_at) AS updated_at
     FROM ${trusted(source(tableNames().workingMemory, { final: true }))}
     WHERE ${blocksOf(runs, blockKey)}`,
    latestRowSchema,
    { signal },
  )
  return new Map(rows.map((r) => [identityKey(r), r]))
}

/**
 * For every run at once: the highest non-deleted version written strictly before `before`, from
 * the captured history and the physical rows merges have not collapsed yet (what restore can read).
 */
async function restoreCandidates(runs: RunSummary[], blockKey: string, before: Date, signal?: AbortSignal) {
  const t = tableNames()
  const scope = sql`${blocksOf(runs, blockKey)} AND is_deleted = 0 AND updated_at < ${param('before', CH_TIME_TYPE, toChTime(before))}`
  const inner = (table: string) => sql`SELECT org, namespace, agent, user_id, session_id, run_id, version FROM ${trusted(table)}
    WHERE ${scope}`
  const sources = [source(t.workingMemory)]
  if (await tableExists(t.history, signal)) sources.unshift(t.history)
  const rows = await selectRows(
    sql`SELECT org, namespace, agent, user_id, session_id, run_id, max(version) AS version
     FROM (${join(sources.map(inner), '\nUNION ALL\n')})
     GROUP BY org, namespace, agent, user_id, session_id, run_id`,
    candidateSchema,
    { signal },
  )
  return new Map(rows.map((r) => [identityKey(r), r.version]))
}

/** What the batch would do to each matched run's block, read in bulk (two or three queries in all). */
export async function planBatch(request: BatchRequestShape, signal?: AbortSignal): Promise<BatchItem[]> {
  const runs = await matchedRuns(request.filter, request.runs, signal)
  if (runs.length === 0) return []
  const { blockKey, action } = request
  const [latest, candidates] = await Promise.all([
    latestRows(runs, blockKey, signal),
    action === 'restore' && request.before ? restoreCandidates(runs, blockKey, request.before, signal) : Promise.resolve(null),
  ])
  const beforeText = request.before?.toISOString()
  return runs.map((run): BatchItem => {
    const k = identityKey({ ...run, user_id: run.userId, session_id: run.sessionId, run_id: run.runId })
    const base = { org: run.org, namespace: run.namespace, agent: run.agent, runId: run.runId, userId: run.userId, sessionId: run.sessionId, blockKey }
    const row = latest.get(k)
    const identity = run.userId || run.sessionId ? ` (user "${run.userId}", session "${run.sessionId}")` : ''
    if (!row) return { ...base, fromVersion: null, toVersion: null, action: 'skip', why: `no ${blockKey} block under the run's identity${identity}` }
    const fromVersion = row.version
    if (action === 'clear') {
      if (row.is_deleted === 1) return { ...base, fromVersion, toVersion: null, action: 'skip', why: `already cleared: version ${fromVersion} is a tombstone` }
      return { ...base, fromVersion, toVersion: null, action: 'clear' }
    }
    const toVersion = candidates?.get(k) ?? null
    if (toVersion === null) {
      return { ...base, fromVersion, toVersion: null, action: 'skip', why: `nothing to restore: no live version written before ${beforeText}` }
    }
    if (toVersion === fromVersion && row.is_deleted === 0) {
      return { ...base, fromVersion, toVersion, action: 'skip', why: `nothing to restore: version ${fromVersion} is current and was written before ${beforeText}` }
    }
    return { ...base, fromVersion, toVersion, action: 'restore' }
  })
}
