/**
 * Two runs side by side (GET /api/compare): each run's header, its checkpoint's versions over time,
 * its resume points and counts, and its current checkpoint for the diff. With `b` omitted, the
 * other side is the same agent's last `succeeded` run that started before `a`: "what is different
 * from the last time it worked?".
 */
import 'server-only'
import { z } from 'zod'
import { selectRows } from '../clickhouse/query'
import { and, sql, trusted, type Sql } from '../clickhouse/sql'
import { source, tableNames } from '../loom/tables'
import { runScope } from '../loom/scope'
import { identityConditions } from '../run-set/conditions'
import type { Block } from '../endpoints/blocks'
import { runKeyText, type BlockRef, type RunRef } from '../loom/identity'
import { isResume } from '../resume/detect'
import { blockResumeStory, resumeStoryFrom, type ResumeStory, type RunBegins } from './block-detail'
import { blockKeyText, readHeaders, readStories } from './compare-read'
import { headerFrom, runDetailAndCheckpoint, type RunHeader } from './run-detail'
import { workingMemoryRunScope } from './wm-run-scope'
import type { CompareSide, CompareResponse } from '../endpoints/runs'
export type { CompareCheckpoint, CompareSide, CompareResponse } from '../endpoints/runs'

/** The block a side's story is about: the run's checkpoint under the identity of the checkpoint its header names. */
const checkpointBlock = (ref: RunRef, checkpoint: Block): BlockRef => ({
  ...ref,
  userId: checkpoint.userId,
  sessionId: checkpoint.sessionId,
  blockKey: 'checkpoint',
})

/**
 * One side: the run's header (with its checkpoint's content) and the checkpoint block's versions
 * and resume points, as `storyOf` tells them.
 */
async function sideFrom(
  ref: RunRef,
  { header, checkpoint }: { header: RunHeader; checkpoint: Block | null },
  storyOf: (block: BlockRef, begins: RunBegins | null) => Promise<ResumeStory>,
): Promise<CompareSide> {
  const run = header.run
  const ownIdentity =
    run.hasRunRow && checkpoint !== null && run.userId === checkpoint.userId && run.sessionId === checkpoint.sessionId
  const story = checkpoint
    ? await storyOf(
        checkpointBlock(ref, checkpoint),
        ownIdentity && run.lastBeginAt
          ? { attempts: run.attempt, startedAt: run.startedAt, lastBeginAt: run.lastBeginAt }
          : null,
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
    counts: { ...header.counts, inputTokens: header.inputTokens, outputTokens: header.outputTokens },
    model: header.model,
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
 * One side read on its own, with the run header's and the block's own statements (one, then four):
 * what each side of compareRuns, read together with the other, must equal.
 */
export async function sideAlone(ref: RunRef, signal?: AbortSignal): Promise<CompareSide> {
  const { detail, checkpoint } = await runDetailAndCheckpoint(ref, signal)
  return sideFrom(ref, { header: detail, checkpoint }, (block, begins) => blockResumeStory(block, begins, signal))
}

/**
 * The same agent's last succeeded run that started before `a`, or null: one read of `loom.runs`
 * (FINAL: the latest version of each run decides its status) under the agent's sorting-key prefix.
 * Ties on the start are broken as the runs list orders them (run_id, descending). When `a` started
 * is read in the same statement (its run row's start, as its header says), so that both runs'
 * headers can then be read together. A run without a run row started at its first working-memory
 * write: one more statement reads that, only for such a run (reading it beside the run row's start
 * every time would double the statement's cost, 20 against 10 ms at 1M runs).
 */
async function lastSucceededBefore(a: RunRef, signal?: AbortSignal): Promise<RunRef | null> {
  const t = tableNames()
  const runs = trusted(source(t.runs, { final: true }))
  const startedBefore = (start: Sql) =>
    sql`(SELECT run_id FROM ${runs} WHERE ${and(identityConditions(a))} AND status = 'succeeded' AND started_at < ${start}
      ORDER BY started_at DESC, run_id DESC LIMIT 1)`
  const found = z.object({ run_row: z.coerce.number(), run_id: z.string().nullable() })
  const [row] = await selectRows(
    sql`WITH (SELECT started_at FROM ${runs} WHERE ${runScope(a)} LIMIT 1) AS a_started
      SELECT a_started IS NOT NULL AS run_row, ${startedBefore(trusted('a_started'))} AS run_id`,
    found,
    { signal },
  )
  let runId = row.run_id
  if (!row.run_row) {
    const firstWrite = sql`(SELECT minOrNull(updated_at) FROM ${trusted(source(t.workingMemory))} WHERE ${await workingMemoryRunScope(a, signal)})`
    const [other] = await selectRows(sql`SELECT 0 AS run_row, ${startedBefore(firstWrite)} AS run_id`, found, {
      signal,
    })
    runId = other.run_id
  }
  return runId === null ? null : { org: a.org, namespace: a.namespace, agent: a.agent, runId }
}

/**
 * Both runs' headers in one statement (readHeaders), then both checkpoints' stories in one more
 * (readStories), after a first to find the other run when `b` is omitted. An unknown `a` is the 404
 * before an unknown `b`, as when each side was read on its own.
 */
export async function compareRuns(a: RunRef, b: RunRef | undefined, signal?: AbortSignal): Promise<CompareResponse> {
  const other = b ?? (await lastSucceededBefore(a, signal))
  const refs = other ? [a, other] : [a]
  const parts = await readHeaders(refs, signal)
  const settled = await Promise.allSettled(refs.map((ref) => headerFrom(ref, parts.get(runKeyText(ref))!)))
  const sides = settled.map((h) => {
    if (h.status === 'rejected') throw h.reason
    return h.value
  })
  const stories = await readStories(
    sides.flatMap((h, i) => (h.checkpoint ? [checkpointBlock(refs[i], h.checkpoint)] : [])),
    signal,
  )
  // One side's diffs and resume detection run off the event loop while the other's are prepared.
  const [sideA, sideB] = await Promise.all(
    sides.map((h, i) =>
      sideFrom(refs[i], h, async (block, begins) => resumeStoryFrom(block, begins, stories.get(blockKeyText(block))!)),
    ),
  )
  if (sideB) return { a: sideA, b: sideB }
  return {
    a: sideA,
    b: null,
    why: `${a.agent} has no succeeded run that started before this one (${sideA.run.startedAt}) in ${a.org}/${a.namespace}`,
  }
}
