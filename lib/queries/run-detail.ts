import { z } from 'zod'
import { queryRows } from '../clickhouse/query'
import { notFound } from '../errors'
import type { RunDetail, RunSummary } from '../api/types'
import { runParams, type RunRef } from '../loom/identity'
import { runLatestRow } from '../loom/runs'
import { tableNames } from '../loom/tables'
import { wmRunScope } from './run-index'
import { runBlocks, RUN_SCOPE } from './working-memory'

const countsSchema = z.object({
  turns: z.coerce.number(),
  memories: z.coerce.number(),
  searches: z.coerce.number(),
  blobs: z.coerce.number(),
  blocks: z.coerce.number(),
  versions: z.coerce.number(),
})

/** All counts in one round trip; each subquery binds its table's sorting-key prefix. */
async function runCounts(run: RunRef, signal?: AbortSignal) {
  const t = tableNames()
  const wmScope = await wmRunScope(signal)
  const [row] = await queryRows(
    `SELECT
       (SELECT count() FROM ${t.turns} WHERE ${RUN_SCOPE}) AS turns,
       (SELECT uniqExact(memory_key) FROM ${t.memory} WHERE ${RUN_SCOPE}) AS memories,
       (SELECT count() FROM ${t.searchTrace} WHERE ${RUN_SCOPE}) AS searches,
       (SELECT count() FROM ${t.contextBlobs} WHERE ${RUN_SCOPE}) AS blobs,
       (SELECT uniqExact(user_id, session_id, block_key) FROM ${t.workingMemory} WHERE ${wmScope}) AS blocks,
       (SELECT count() FROM ${t.workingMemory} WHERE ${wmScope}) AS versions`,
    runParams(run),
    countsSchema,
    { signal },
  )
  return row
}

export async function getRunDetail(run: RunRef, signal?: AbortSignal): Promise<RunDetail> {
  const [row, blocks, counts] = await Promise.all([
    runLatestRow(run, signal),
    runBlocks(run, signal),
    runCounts(run, signal),
  ])
  const checkpoints = blocks.filter((b) => b.blockKey === 'checkpoint')
  if (!row && blocks.length === 0) throw notFound(`No run ${run.runId} under ${run.org}/${run.namespace}/${run.agent}`)
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
  const newestBlock = [...blocks].sort((a, b) => b.updatedAt.localeCompare(a.updatedAt))[0]
  const oldestBlock = [...blocks].sort((a, b) => a.updatedAt.localeCompare(b.updatedAt))[0]
  const summary: RunSummary = row
    ? {
        org: row.org,
        namespace: row.namespace,
        agent: row.agent,
        runId: row.run_id,
        userId: row.user_id,
        sessionId: row.session_id,
        goal: row.goal,
        status: row.status,
        attempt: row.attempt,
        startedAt: row.started_at,
        completedAt: row.completed_at,
        durationMs: row.duration_ms,
        turns: row.turns,
        costUsd: row.cost_usd,
        checkpoint,
      }
    : {
        ...run,
        userId: newestBlock.userId,
        sessionId: newestBlock.sessionId,
        goal: '',
        status: 'unknown',
        attempt: 0,
        startedAt: oldestBlock.updatedAt,
        completedAt: null,
        durationMs: null,
        turns: 0,
        costUsd: 0,
        checkpoint,
      }
  return {
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
}

