import { TupleParam } from '@clickhouse/client'
import { z } from 'zod'
import { selectRows } from '../clickhouse/query'
import { join, param, sql, trusted, type Sql } from '../clickhouse/sql'
import { chTimeToIso, toChTime } from '../tables/time'
import { AppError } from '../errors'
import { versionString } from '../tables/values'
import { source, tableNames } from '../loom/tables'
import { decodeCursor, type RunsCursor } from '../api/cursor'
import type { RunSummary } from '../endpoints/runs'
import { listRuns } from '../queries/runs'
import type { RunsFilter } from '../run-set/filter'
import { CH_TIME_TYPE } from '../run-set/conditions'
import { runIdentityColumns } from '../run-set/list-row'
import { tableExists } from '../clickhouse/schema-presence'
import { BATCH_MAX_RUNS, type BatchRunKey } from './schema'
import type { BatchRequestShape } from './token'
import type { BatchItem } from './types'
import { runKeyText } from '../loom/identity'
import { isActive } from '../operator/active-run'
import { isOperatorActor } from '../resume/rows'

/** One page holds the whole batch: a next page means the filter matches too many runs. */
const PAGE = BATCH_MAX_RUNS

/**
 * The runs the filter matches, in list order, through the runs list itself (so a batch sees exactly
 * the runs the page shows). Refused when over the cap: at most cap + 1 runs are read to tell.
 */
export async function matchedRuns(
  filter: RunsFilter,
  only: BatchRunKey[] | undefined,
  signal?: AbortSignal,
): Promise<RunSummary[]> {
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
    throw new AppError(
      'invalid',
      `filter matches ${runs.length.toLocaleString('en-US')} runs; a batch takes at most ${BATCH_MAX_RUNS.toLocaleString('en-US')}: narrow the filter`,
      {
        details: { field: 'filter', count: runs.length },
      },
    )
  }
  if (!only) return runs
  const wanted = new Set(only.map(runKeyText))
  return runs.filter((r) => wanted.has(runKeyText(r)))
}

/** A run under its writer's identity: what the working-memory sorting key starts with. */
export type RunIdentity = Pick<RunSummary, 'org' | 'namespace' | 'agent' | 'userId' | 'sessionId' | 'runId'>

/** The run identities as one bound array of tuples, for `(org, …, run_id) IN`. */
export function identityTuples(runs: RunIdentity[]): Sql {
  const keys = runs.map((r) => new TupleParam([r.org, r.namespace, r.agent, r.userId, r.sessionId, r.runId]))
  return param('keys', 'Array(Tuple(String, String, String, String, String, String))', keys)
}

/** The block `blockKey` of every run, under the run's own identity: the whole working-memory sorting key. */
function blocksOf(runs: RunIdentity[], blockKey: string): Sql {
  return sql`(org, namespace, agent, user_id, session_id, run_id) IN ${identityTuples(runs)} AND block_key = ${param('block_key', 'String', blockKey)}`
}

export const identityKey = (r: {
  org: string
  namespace: string
  agent: string
  user_id: string
  session_id: string
  run_id: string
}) => JSON.stringify([r.org, r.namespace, r.agent, r.user_id, r.session_id, r.run_id])

const latestRowSchema = runIdentityColumns.extend({
  version: versionString,
  is_deleted: z.coerce.number(),
  actor: z.string(),
  updated_at: z.string().transform(chTimeToIso),
})

const candidateSchema = latestRowSchema
  .pick({ org: true, namespace: true, agent: true, user_id: true, session_id: true, run_id: true })
  .extend({
    version: versionString,
  })

export type LatestRow = z.infer<typeof latestRowSchema>

/**
 * The block's latest row for every run, read from working memory itself (not the derived run
 * index, which may trail the agents): one query keyed by the whole sorting key. What the preview
 * shows as replaced is what the write's version check will compare against.
 */
export async function latestRows(
  runs: RunIdentity[],
  blockKey: string,
  signal?: AbortSignal,
): Promise<Map<string, LatestRow>> {
  const rows = await selectRows(
    sql`SELECT org, namespace, agent, user_id, session_id, run_id, version, is_deleted, actor, toString(updated_at) AS updated_at
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
  const inner = (
    table: string,
  ) => sql`SELECT org, namespace, agent, user_id, session_id, run_id, version FROM ${trusted(table)}
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

/** The `why` of an item skipped because its run is still writing it. */
export const RUNNING = 'running'
export const RUNNING_NOTE =
  'running: the run is still running and checkpointed within the last 5 minutes, so its next checkpoint would overwrite the write; stop the agent first, or force'

/** What the batch would do to each matched run's block, read in bulk (two or three queries in all). */
export async function planBatch(request: BatchRequestShape, signal?: AbortSignal): Promise<BatchItem[]> {
  const runs = await matchedRuns(request.filter, request.runs, signal)
  if (runs.length === 0) return []
  const { blockKey, action } = request
  const [latest, candidates] = await Promise.all([
    latestRows(runs, blockKey, signal),
    action === 'restore' && request.before
      ? restoreCandidates(runs, blockKey, request.before, signal)
      : Promise.resolve(null),
  ])
  const beforeText = request.before?.toISOString()
  return runs.map((run): BatchItem => {
    const k = identityKey({ ...run, user_id: run.userId, session_id: run.sessionId, run_id: run.runId })
    const base = {
      org: run.org,
      namespace: run.namespace,
      agent: run.agent,
      runId: run.runId,
      userId: run.userId,
      sessionId: run.sessionId,
      blockKey,
    }
    const row = latest.get(k)
    const identity = run.userId || run.sessionId ? ` (user "${run.userId}", session "${run.sessionId}")` : ''
    if (!row) {
      return {
        ...base,
        status: run.status,
        current: null,
        warnings: [],
        fromVersion: null,
        toVersion: null,
        action: 'skip',
        why: `no ${blockKey} block under the run's identity${identity}`,
      }
    }
    const fromVersion = row.version
    const current = {
      version: row.version,
      actor: row.actor,
      byOperator: isOperatorActor(row.actor),
      isDeleted: row.is_deleted === 1,
      updatedAt: row.updated_at,
    }
    const active = isActive(run.status, row.updated_at)
    const withRow = { ...base, status: run.status, current, fromVersion }
    const skip = (toVersion: string | null, why: string): BatchItem => ({
      ...withRow,
      toVersion,
      action: 'skip',
      why,
      warnings: [],
    })
    if (action === 'clear' && current.isDeleted)
      return skip(null, `already cleared: version ${fromVersion} is a tombstone`)
    const toVersion = action === 'restore' ? (candidates?.get(k) ?? null) : null
    if (action === 'restore') {
      if (toVersion === null) return skip(null, `nothing to restore: no live version written before ${beforeText}`)
      if (toVersion === fromVersion && !current.isDeleted) {
        return skip(
          toVersion,
          `nothing to restore: version ${fromVersion} is current and was written before ${beforeText}`,
        )
      }
    }
    if (active && !request.force) return skip(toVersion, RUNNING)
    const warnings: string[] = []
    if (active) warnings.push('running')
    if (current.byOperator) warnings.push("replaces an operator's write")
    if (action === 'restore' && !current.isDeleted)
      warnings.push(`replaces live version ${fromVersion}: not a tombstone`)
    return { ...withRow, toVersion, action, warnings }
  })
}
