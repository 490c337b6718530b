/**
 * Two runs side by side (GET /api/compare): each run's header, its checkpoint's versions over time,
 * its resume points and counts, and its current checkpoint for the diff. With `b` omitted, the
 * other side is the same agent's last `succeeded` run that started before `a`: "what is different
 * from the last time it worked?".
 */
import 'server-only'
import { z } from 'zod'
import { selectRows } from '../clickhouse/query'
import { and, param, sql, trusted } from '../clickhouse/sql'
import { toChTime } from '../tables/time'
import { source, tableNames } from '../loom/tables'
import { CH_TIME_TYPE, identityConditions } from '../run-set/conditions'
import type { RunDetail } from '../endpoints/runs'
import type { RunRef } from '../loom/identity'
import { isResume } from '../resume/detect'
import { blockResumeStory } from './block-detail'
import { runDetailAndCheckpoint } from './run-detail'
import type { CompareSide, CompareResponse } from '../endpoints/runs'
export type { CompareCheckpoint, CompareSide, CompareResponse } from '../endpoints/runs'

/**
 * One side: the run's header (with its checkpoint's content, read in the same statements) and the
 * checkpoint block's versions and resume points (four more reads).
 */
async function sideOf(
  ref: RunRef,
  signal?: AbortSignal,
  known?: Awaited<ReturnType<typeof runDetailAndCheckpoint>>,
): Promise<CompareSide> {
  const { detail, checkpoint } = known ?? (await runDetailAndCheckpoint(ref, signal))
  const run = detail.run
  const ownIdentity =
    run.hasRunRow && checkpoint !== null && run.userId === checkpoint.userId && run.sessionId === checkpoint.sessionId
  const story = checkpoint
    ? await blockResumeStory(
        { ...ref, userId: checkpoint.userId, sessionId: checkpoint.sessionId, blockKey: 'checkpoint' },
        ownIdentity && run.lastBeginAt
          ? { attempts: run.attempt, startedAt: run.startedAt, lastBeginAt: run.lastBeginAt }
          : null,
        signal,
      )
    : null
  const byVersion = new Map((story?.versions ?? []).map((v) => [v.version, v]))
  const checkpoints = [...byVersion.values()]
    .map((v) => ({ version: v.version, at: v.updatedAt, chars: v.chars, isDeleted: v.isDeleted }))
    .sort((x, y) => (x.at < y.at ? -1 : x.at > y.at ? 1 : Number(BigInt(x.version) - BigInt(y.version))))
  return {
    run,
    checkpoints,
    resumes: story ? story.points.filter(isResume) : [],
    counts: { ...detail.counts, inputTokens: detail.inputTokens, outputTokens: detail.outputTokens },
    model: detail.model,
    current: checkpoint
      ? {
          version: checkpoint.version,
          content: checkpoint.isDeleted ? '' : checkpoint.content,
          isDeleted: checkpoint.isDeleted,
          chars: checkpoint.chars,
          charLimit: checkpoint.charLimit,
        }
      : null,
  }
}

/**
 * The same agent's last succeeded run that started before `a`, or null: one read of `loom.runs`
 * (FINAL: the latest version of each run decides its status) under the agent's sorting-key prefix.
 * Ties on the start are broken as the runs list orders them (run_id, descending).
 */
async function lastSucceededBefore(a: RunDetail['run'], signal?: AbortSignal): Promise<RunRef | null> {
  const [row] = await selectRows(
    sql`SELECT run_id FROM ${trusted(source(tableNames().runs, { final: true }))}
      WHERE ${and(identityConditions(a))} AND status = 'succeeded'
        AND started_at < ${param('before', CH_TIME_TYPE, toChTime(a.startedAt))}
      ORDER BY started_at DESC, run_id DESC
      LIMIT 1`,
    z.object({ run_id: z.string() }),
    { signal },
  )
  return row ? { org: a.org, namespace: a.namespace, agent: a.agent, runId: row.run_id } : null
}

export async function compareRuns(a: RunRef, b: RunRef | undefined, signal?: AbortSignal): Promise<CompareResponse> {
  // The two sides overlap: one side's diffs and resume detection run in Node while the engine reads the other's rows.
  const detailA = await runDetailAndCheckpoint(a, signal)
  const other = b ?? lastSucceededBefore(detailA.detail.run, signal)
  const [left, right] = await Promise.all([
    sideOf(a, signal, detailA),
    Promise.resolve(other).then((ref) => (ref ? sideOf(ref, signal) : null)),
  ])
  if (right) return { a: left, b: right }
  return {
    a: left,
    b: null,
    why: `${a.agent} has no succeeded run that started before this one (${left.run.startedAt}) in ${a.org}/${a.namespace}`,
  }
}
