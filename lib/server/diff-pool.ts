/**
 * Diffs of large checkpoints run off the event loop: a line diff of two big texts costs the square
 * of their differences, and a request waiting on it would hold every other request. Pairs past
 * OFFLOAD_MIN_CHARS go to one worker thread (tinypool, started on first use, gone when idle) with
 * a larger budget than the inline one, so a real large change still gets its line-by-line diff;
 * past that budget the diff says so and shows both sides. When the pool cannot take the task (the
 * worker file is missing, its queue is full, the thread failed) the inline, smaller budget applies.
 */
import 'server-only'
import { createHash } from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import Tinypool from 'tinypool'
import { describeDiff, diffContents, diffKind, lineDiffOptions, type ContentDiff, type LineChanges } from '../diff'
import { detectResumePoints } from '../resume/detect'
import type { DetectOptions, ResumePoint, VersionInput } from '../resume/types'

/**
 * Pairs at least this large (both sides' characters together) leave the event loop: two 2,000-
 * character checkpoints already reach the inline budget when most of their lines differ.
 */
export const OFFLOAD_MIN_CHARS = 4_000
/** The worker's budget: ten times the inline edits, and half a second (a route that diffs stays under a second). */
export const POOL_MAX_EDITS = 4_000
export const POOL_TIMEOUT_MS = 500
/**
 * Tasks waiting for the worker beyond this are diffed inline, within the inline budget: a request
 * never waits behind more than a few others' half-second budgets.
 */
const MAX_QUEUE = 2

/** The worker's file, beside this module in the source tree and in the standalone copy (see next.config.mjs). */
export const WORKER_FILE = path.join('lib', 'server', 'diff-worker.mjs')

let pool: Tinypool | null | undefined

function diffPool(): Tinypool | null {
  if (pool !== undefined) return pool
  const file = path.resolve(process.cwd(), WORKER_FILE)
  pool = fs.existsSync(file)
    ? new Tinypool({
        filename: pathToFileURL(file).href,
        minThreads: 0,
        // One thread beside the engine on a small machine; at most two.
        maxThreads: Math.max(1, Math.min(2, os.availableParallelism() - 1)),
        maxQueue: MAX_QUEUE,
        idleTimeout: 30_000,
      })
    : null
  return pool
}

/**
 * Recent answers, by the two sides' hash: one request often diffs the same pair twice (the export
 * holds the block's detail and the timeline), and every viewer of a run asks for the same steps.
 * A pair whose budget ran out is kept too: that is the costly answer.
 */
const recent = new Map<string, Promise<{ changes: LineChanges } | null>>()
const RECENT_MAX = 64

function pairKey(before: string, after: string): string {
  return createHash('sha256').update(`${before.length}:`).update(before).update(after).digest('base64')
}

/** Line changes of a large pair from the worker; null when the pool could not run it (the caller diffs inline). */
function lineChangesOffLoop(before: string, after: string): Promise<{ changes: LineChanges } | null> {
  const key = pairKey(before, after)
  const hit = recent.get(key)
  if (hit) {
    recent.delete(key)
    recent.set(key, hit)
    return hit
  }
  const p = diffPool()
  if (!p) return Promise.resolve(null)
  const answer = (
    p.run({
      before,
      after,
      options: lineDiffOptions(POOL_MAX_EDITS, POOL_TIMEOUT_MS),
    }) as Promise<NonNullable<LineChanges> | null>
  ).then(
    (changes) => ({ changes: changes ?? undefined }),
    () => {
      // Not taken (queue full) or failed: not kept, so the next ask tries the worker again.
      recent.delete(key)
      return null
    },
  )
  recent.set(key, answer)
  if (recent.size > RECENT_MAX) recent.delete(recent.keys().next().value!)
  return answer
}

function offloads(before: string, after: string): boolean {
  return before.length + after.length >= OFFLOAD_MIN_CHARS && diffKind(before, after) === 'text'
}

/** `diffContents`, with a large line diff computed off the event loop. */
export async function diffContentsOffLoop(
  before: string,
  after: string,
  opts: { words?: boolean } = {},
): Promise<ContentDiff> {
  if (!offloads(before, after)) return diffContents(before, after)
  const lines = await lineChangesOffLoop(before, after)
  return lines ? diffContents(before, after, { ...lines, words: opts.words }) : diffContents(before, after)
}

/**
 * `detectResumePoints`, with the summaries of large steps diffed off the event loop first: a first
 * pass names the large pairs the points describe, the worker diffs them, a second pass uses them.
 */
export async function detectResumePointsOffLoop(
  versions: readonly VersionInput[],
  opts: DetectOptions = {},
): Promise<ResumePoint[]> {
  const large: [string, string][] = []
  detectResumePoints(versions, {
    ...opts,
    summarize: (from, to) => {
      if (!offloads(from, to)) return undefined
      large.push([from, to])
      return ''
    },
  })
  if (large.length === 0) return detectResumePoints(versions, opts)
  const summaries = new Map<string, Map<string, string>>()
  const described = await Promise.all(
    large.map(async ([from, to]) => describeDiff(await diffContentsOffLoop(from, to, { words: false }))),
  )
  large.forEach(([from, to], i) => {
    let byTo = summaries.get(from)
    if (!byTo) summaries.set(from, (byTo = new Map()))
    byTo.set(to, described[i])
  })
  return detectResumePoints(versions, { ...opts, summarize: (from, to) => summaries.get(from)?.get(to) })
}
