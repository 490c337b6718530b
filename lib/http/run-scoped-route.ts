import type { RunRef } from '../loom/identity'
import { runPathSchema } from '../api/schemas'
import { forExistingRun } from '../queries/run-scoped'
import { route } from './handler'

/**
 * The GET handler of a run-scoped read (blobs, memories, searches): reads the run's rows and, when
 * there are none, checks that the run exists, so an unknown run answers 404 and a known one empty.
 */
export function runScopedGet<T>(read: (run: RunRef, signal: AbortSignal) => Promise<T>, isEmpty: (v: T) => boolean) {
  return route(runPathSchema, (req, run) => forExistingRun(run, req.signal, () => read(run, req.signal), isEmpty))
}
