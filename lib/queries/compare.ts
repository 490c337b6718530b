/**
 * Two runs side by side (GET /api/compare): each run's header, its checkpoint's versions over time,
 * its resume points and counts, and its current checkpoint for the diff. With `b` omitted, the
 * other side is the same agent's last `succeeded` run that started before `a`: "what is different
 * from the last time it worked?".
 */
import 'server-only'
import type { RunCounts, RunDetail } from '../api/types'
import type { RunRef } from '../loom/identity'
import { isResume } from '../resume/detect'
import type { ResumePoint } from '../resume/types'
import { getBlockDetail } from './block-detail'
import { getRunDetail } from './run-detail'
import { listRuns } from './runs'

export type CompareCheckpoint = { version: string; at: string; chars: number; isDeleted: boolean }

export type CompareSide = {
  run: RunDetail['run']
  /** Every captured version of the run's `checkpoint` block, oldest first ([] without one). */
  checkpoints: CompareCheckpoint[]
  /** The points where a new process (or a long pause) picked the run up. */
  resumes: ResumePoint[]
  counts: RunCounts & { inputTokens: number; outputTokens: number }
  model: string
  /** The checkpoint's latest version and content (null without a checkpoint). */
  current: { version: string; content: string; isDeleted: boolean; chars: number; charLimit: number } | null
}

export type CompareResponse = { a: CompareSide; b: CompareSide | null; why?: string }

async function sideOf(ref: RunRef, signal?: AbortSignal, known?: RunDetail): Promise<CompareSide> {
  const detail = known ?? (await getRunDetail(ref, signal))
  const cp = detail.run.checkpoint
  const block = cp ? await getBlockDetail({ ...ref, userId: cp.userId, sessionId: cp.sessionId, blockKey: 'checkpoint' }, signal) : null
  const versions = block ? (block.history ?? block.versions) : []
  const byVersion = new Map(versions.map((v) => [v.version, v]))
  const checkpoints = [...byVersion.values()]
    .map((v) => ({ version: v.version, at: v.updatedAt, chars: v.chars, isDeleted: v.isDeleted }))
    .sort((x, y) => (x.at < y.at ? -1 : x.at > y.at ? 1 : Number(BigInt(x.version) - BigInt(y.version))))
  return {
    run: detail.run,
    checkpoints,
    resumes: block ? block.resume.points.filter(isResume) : [],
    counts: { ...detail.counts, inputTokens: detail.inputTokens, outputTokens: detail.outputTokens },
    model: detail.model,
    current: block?.block
      ? { version: block.block.version, content: block.block.isDeleted ? '' : block.block.content, isDeleted: block.block.isDeleted, chars: block.block.chars, charLimit: block.block.charLimit }
      : null,
  }
}

/** The same agent's last succeeded run that started before `a`, or null. */
async function lastSucceededBefore(a: RunDetail['run'], signal?: AbortSignal): Promise<RunRef | null> {
  const to = new Date(Date.parse(a.startedAt) - 1)
  const page = await listRuns({ filter: { org: a.org, namespace: a.namespace, agent: a.agent, status: 'succeeded', to }, limit: 1, signal, flags: false })
  const r = page.runs[0]
  return r ? { org: r.org, namespace: r.namespace, agent: r.agent, runId: r.runId } : null
}

export async function compareRuns(a: RunRef, b: RunRef | undefined, signal?: AbortSignal): Promise<CompareResponse> {
  // The two sides overlap: one side's diffs and resume detection run in Node while the engine reads the other's rows.
  const detailA = await getRunDetail(a, signal)
  const other = b ?? lastSucceededBefore(detailA.run, signal)
  const [left, right] = await Promise.all([
    sideOf(a, signal, detailA),
    Promise.resolve(other).then((ref) => (ref ? sideOf(ref, signal) : null)),
  ])
  if (right) return { a: left, b: right }
  return { a: left, b: null, why: `${a.agent} has no succeeded run that started before this one (${left.run.startedAt}) in ${a.org}/${a.namespace}` }
}
