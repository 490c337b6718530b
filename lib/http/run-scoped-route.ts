import type { RunRef } from '../loom/identity'
import type { endpoints } from '../endpoints/api'
import type { ResponseOf } from '../endpoints/define'
import { forExistingRun } from '../queries/run-scoped'
import { serve } from './serve'

/**
 * The GET handler of a run-scoped read (blobs, memories, searches): reads the run's rows and, when
 * there are none, checks that the run exists, so an unknown run answers 404 and a known one empty.
 */
export function runScopedGet<E extends (typeof endpoints)['blobs' | 'memories' | 'searches']>(
  ep: E,
  read: (run: RunRef, signal: AbortSignal) => Promise<ResponseOf<E>>,
  isEmpty: (v: ResponseOf<E>) => boolean,
) {
  return serve(ep, ({ params: run }, req) => forExistingRun(run, req.signal, () => read(run, req.signal), isEmpty))
}
