import { z } from 'zod'
import { selectRows } from '../clickhouse/query'
import { sql, trusted } from '../clickhouse/sql'
import { nullableChTimeToIso } from '../clickhouse/time'
import { notFound } from '../errors'
import type { Block, RunDetail, RunSummary } from '../api/types'
import type { RunRef } from '../loom/identity'
import { runLatestRow } from '../loom/runs'
import { runScope } from '../loom/scope'
import { tableNames, source } from '../loom/tables'
import { toBlock, WM_COLUMNS, wmRowSchema } from '../tables/working-memory'
import { flagsOfRuns, runKey } from './run-flags'
import { runRowSummary } from './runs'
import { runIndexReady } from './run-index'
import { workingMemoryRunScope } from './wm-run-scope'

const countsSchema = z.object({
  turns: z.coerce.number(),
  memories: z.coerce.number(),
  searches: z.coerce.number(),
  blobs: z.coerce.number(),
})

const spanSchema = z.object({
  blocks: z.coerce.number(),
  versions: z.coerce.number(),
  oldest_at: z.string().nullable(),
  newest_user_id: z.string(),
  newest_session_id: z.string(),
})

/** All counts in one round trip; each subquery binds its table's sorting-key prefix. */
async function runCounts(run: RunRef, signal?: AbortSignal) {
  const t = tableNames()
  const scope = runScope(run)
  const [row] = await selectRows(
    sql`SELECT
       (SELECT count() FROM ${trusted(source(t.turns))} WHERE ${scope}) AS turns,
       (SELECT uniqExact(memory_key) FROM ${trusted(source(t.memory))} WHERE ${scope}) AS memories,
       (SELECT count() FROM ${trusted(source(t.searchTrace))} WHERE ${scope}) AS searches,
       (SELECT count() FROM ${trusted(source(t.contextBlobs))} WHERE ${scope}) AS blobs`,
    countsSchema,
    { signal },
  )
  return row
}

/**
 * The run's working memory at a glance, in one pass over its rows (no content read): blocks,
 * versions, the first write and the identity of the newest write (which is a block's latest version).
 */
async function runSpan(run: RunRef, signal?: AbortSignal) {
  const [row] = await selectRows(
    sql`SELECT uniqExact(user_id, session_id, block_key) AS blocks, count() AS versions,
       if(count() = 0, NULL, toString(min(updated_at))) AS oldest_at,
       argMax(user_id, (updated_at, version)) AS newest_user_id,
       argMax(session_id, (updated_at, version)) AS newest_session_id
     FROM ${trusted(source(tableNames().workingMemory))} WHERE ${await workingMemoryRunScope(run, signal)}`,
    spanSchema,
    { signal },
  )
  return row
}

/** The latest version of each of the run's checkpoint blocks (one per user_id, session_id). */
async function runCheckpoints(run: RunRef, signal?: AbortSignal) {
  const rows = await selectRows(
    sql`SELECT ${trusted(WM_COLUMNS)} FROM ${trusted(source(tableNames().workingMemory, { final: true }))}
     WHERE ${await workingMemoryRunScope(run, signal)} AND block_key = 'checkpoint'`,
    wmRowSchema,
    { signal },
  )
  return rows.map(toBlock)
}

/**
 * Throws the run's 404 unless it exists: a row in `loom.runs` or any working-memory write, the
 * same test as getRunDetail's. A run-scoped tab that found nothing asks this, one statement of
 * two key lookups, instead of reading the whole header to tell "unknown run" from "none here".
 */
export async function requireRun(run: RunRef, signal?: AbortSignal): Promise<void> {
  const t = tableNames()
  const rows = await selectRows(
    sql`SELECT 1 AS found FROM (
       SELECT 1 FROM ${trusted(source(t.runs))} WHERE ${runScope(run)} LIMIT 1
       UNION ALL
       SELECT 1 FROM ${trusted(source(t.workingMemory))} WHERE ${await workingMemoryRunScope(run, signal)} LIMIT 1
     ) LIMIT 1`,
    z.object({ found: z.coerce.number() }),
    { signal },
  )
  if (rows.length === 0) throw runNotFound(run)
}

const runNotFound = (run: RunRef) => notFound(`No run ${run.runId} under ${run.org}/${run.namespace}/${run.agent}`)

export async function getRunDetail(run: RunRef, signal?: AbortSignal): Promise<RunDetail> {
  return (await runDetailAndCheckpoint(run, signal)).detail
}

/**
 * The run's header, with the content of the checkpoint it names (the latest version of the run's
 * own checkpoint block, as FINAL reads it; null without one), read in the same statements.
 */
export async function runDetailAndCheckpoint(run: RunRef, signal?: AbortSignal): Promise<{ detail: RunDetail; checkpoint: Block | null }> {
  const [row, checkpoints, span, otherCounts] = await Promise.all([
    runLatestRow(run, signal),
    runCheckpoints(run, signal),
    runSpan(run, signal),
    runCounts(run, signal),
  ])
  const counts = { ...otherCounts, blocks: span.blocks, versions: span.versions }
  if (!row && span.versions === 0) throw runNotFound(run)
  const own = row ? checkpoints.find((c) => c.userId === row.user_id && c.sessionId === row.session_id) : undefined
  const newest = [...checkpoints].sort((a, b) => b.updatedAt.localeCompare(a.updatedAt))[0]
  const cp = own ?? newest
  const checkpoint = cp
    ? {
        version: cp.version,
        updatedAt: cp.updatedAt,
        chars: cp.chars,
        charLimit: cp.charLimit,
        isDeleted: cp.isDeleted,
        userId: cp.userId,
        sessionId: cp.sessionId,
      }
    : null
  const summary: RunSummary = row
    ? runRowSummary(row, { startedAt: row.started_at, completedAt: row.completed_at }, checkpoint, [])
    : {
        ...run,
        userId: span.newest_user_id,
        sessionId: span.newest_session_id,
        goal: '',
        status: 'unknown',
        attempt: 0,
        // As in the runs list: a checkpoint-only run started at its first working-memory write.
        startedAt: nullableChTimeToIso(span.oldest_at) ?? '',
        completedAt: null,
        durationMs: null,
        turns: 0,
        costUsd: 0,
        checkpoint,
        flags: [],
      }
  const flags = await flagsOfRuns(
    [{ org: summary.org, namespace: summary.namespace, agent: summary.agent, run_id: summary.runId }],
    await runIndexReady(signal),
    signal,
  )
  summary.flags = flags.get(runKey({ org: summary.org, namespace: summary.namespace, agent: summary.agent, run_id: summary.runId })) ?? []
  const detail: RunDetail = {
    run: {
      ...summary,
      reflection: row?.reflection ?? '',
      outcome: row?.outcome ?? '',
      lastBeginAt: row?.last_begin_at ?? null,
      hasRunRow: !!row,
    },
    memoriesUsed: row?.memories_used ?? [],
    recalledKeys: row?.recalled_keys ?? [],
    inputTokens: row?.input_tokens ?? 0,
    outputTokens: row?.output_tokens ?? 0,
    model: row?.model ?? '',
    counts,
  }
  return { detail, checkpoint: cp ?? null }
}

