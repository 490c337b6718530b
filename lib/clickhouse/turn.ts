/**
 * The moment the request a statement belongs to arrived: the embedded engine runs one statement
 * at a time, and gives the next turn to the oldest request waiting (see client.ts).
 */
import { AsyncLocalStorage } from 'node:async_hooks'

const arrivals = new AsyncLocalStorage<number>()

/** Runs `fn` as one request that arrived now: every statement it sends waits its turn as of now. */
export function asOneRequest<T>(fn: () => Promise<T>): Promise<T> {
  return arrivals.run(performance.now(), fn)
}

/** When the current request arrived; for work outside a request (the demo agent, start-up), now. */
export function arrivalOfCurrentRequest(): number {
  return arrivals.getStore() ?? performance.now()
}
