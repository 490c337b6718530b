/**
 * Serializes async work per key inside this process. Kept on globalThis so every
 * route bundle of the server shares one lock table.
 */
const g = globalThis as typeof globalThis & { __loomRunsLocks?: Map<string, Promise<unknown>> }

export async function withKeyLock<T>(key: string, work: () => Promise<T>): Promise<T> {
  const locks = (g.__loomRunsLocks ??= new Map())
  const previous = locks.get(key) ?? Promise.resolve()
  const run = previous.catch(() => undefined).then(work)
  const tail = run.catch(() => undefined)
  locks.set(key, tail)
  try {
    return await run
  } finally {
    if (locks.get(key) === tail) locks.delete(key)
  }
}
