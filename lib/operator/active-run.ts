import { AppError } from '../errors'
import type { RunRef } from '../loom/identity'
import { runLatestRow } from '../loom/runs'
import { toBlock, type WmRow } from '../tables/working-memory'

/** A run whose checkpoint moved this recently while it is `running` is probably still being written. */
export const ACTIVE_WINDOW_MS = 5 * 60_000

/** The run is `running` and its block moved within the active window: an agent is probably still writing it. */
export function isActive(status: string | undefined, updatedAt: string, now = Date.now()): boolean {
  return status === 'running' && now - Date.parse(updatedAt) < ACTIVE_WINDOW_MS
}

/** Refuses a write into a run that is still writing its checkpoint; `force` skips the check. */
export async function refuseActiveRun(run: RunRef, latest: WmRow, force = false): Promise<void> {
  if (force) return
  const row = await runLatestRow(run)
  if (isActive(row?.status, latest.updated_at)) {
    const age = Date.now() - Date.parse(latest.updated_at)
    throw new AppError(
      'run_active',
      `The run is still running and wrote this block ${Math.round(age / 1000)} s ago; its next checkpoint would overwrite your change. Stop the agent first, or send force: true.`,
      { details: { current: toBlock(latest) } },
    )
  }
}
