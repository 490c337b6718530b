import 'server-only'
import { AppError } from '../errors'

/**
 * Per-viewer read budgets: each signed-in user (or the local operator) has a few reads running at
 * once and a short line of reads waiting; past the line a read is refused with 429 at once. The
 * embedded engine runs one statement at a time, so without this one viewer's burst (a script, a
 * dozen open tabs) would fill its queue and every other viewer would wait behind all of it; with
 * it, another viewer's read waits behind at most a few of theirs.
 */
export const READS_AT_ONCE_PER_VIEWER = 4
export const READS_WAITING_PER_VIEWER = 32

type Waiter = { resolve: () => void; reject: (err: unknown) => void; signal?: AbortSignal; onAbort?: () => void }
type Lane = { running: number; waiting: Waiter[] }

export type ReadBudgetStats = { refused: number; maxRunning: number }

const g = globalThis as typeof globalThis & {
  __loomRunsReadLanes?: Map<string, Lane>
  __loomRunsReadBudgetStats?: ReadBudgetStats
}
const lanes = (g.__loomRunsReadLanes ??= new Map())
const stats = (g.__loomRunsReadBudgetStats ??= { refused: 0, maxRunning: 0 })

/** Reads refused and the most any one viewer had running at once, since start (for tests and health). */
export function readBudgetStats(): ReadBudgetStats {
  return { ...stats }
}

export function resetReadBudgetStats(): void {
  stats.refused = 0
  stats.maxRunning = 0
}

function aborted(): Error {
  const err = new Error('The request was aborted while it waited for its turn')
  err.name = 'AbortError'
  return err
}

function release(key: string, lane: Lane) {
  lane.running--
  const next = lane.waiting.shift()
  if (next) {
    if (next.onAbort) next.signal?.removeEventListener('abort', next.onAbort)
    lane.running++
    next.resolve()
  } else if (lane.running === 0) lanes.delete(key)
}

/**
 * Runs `read` within the viewer's budget: at once when fewer than READS_AT_ONCE_PER_VIEWER of
 * theirs are running, after the earlier ones otherwise; refused (429, retry after 1 s) when
 * READS_WAITING_PER_VIEWER are already waiting. A read whose request is cancelled while it waits
 * leaves the line without running.
 */
export async function withinReadBudget<T>(
  viewer: string,
  signal: AbortSignal | undefined,
  read: () => Promise<T>,
): Promise<T> {
  let lane = lanes.get(viewer)
  if (!lane) {
    lane = { running: 0, waiting: [] }
    lanes.set(viewer, lane)
  }
  const own = lane
  if (own.running < READS_AT_ONCE_PER_VIEWER) {
    own.running++
  } else {
    if (own.waiting.length >= READS_WAITING_PER_VIEWER) {
      stats.refused++
      throw new AppError(
        'rate_limited',
        `Too many reads at once for ${viewer}: ${READS_AT_ONCE_PER_VIEWER} running and ${READS_WAITING_PER_VIEWER} waiting. Try again in a moment.`,
        {
          details: { retryAfter: 1 },
        },
      )
    }
    if (signal?.aborted) throw aborted()
    await new Promise<void>((resolve, reject) => {
      const waiter: Waiter = { resolve, reject, signal }
      if (signal) {
        waiter.onAbort = () => {
          const i = own.waiting.indexOf(waiter)
          if (i >= 0) own.waiting.splice(i, 1)
          reject(aborted())
        }
        signal.addEventListener('abort', waiter.onAbort, { once: true })
      }
      own.waiting.push(waiter)
    })
  }
  stats.maxRunning = Math.max(stats.maxRunning, own.running)
  try {
    return await read()
  } finally {
    release(viewer, own)
  }
}
