import type { RunRef } from '../loom/identity'
import { requireRun } from './run-detail'

/**
 * Runs a run-scoped read; when it finds nothing, checks that the run exists so an
 * unknown run answers 404 while a known run with nothing of that kind answers empty.
 */
export async function forExistingRun<T>(
  run: RunRef,
  signal: AbortSignal | undefined,
  read: () => Promise<T>,
  isEmpty: (v: T) => boolean,
): Promise<T> {
  const value = await read()
  if (isEmpty(value)) await requireRun(run, signal)
  return value
}
