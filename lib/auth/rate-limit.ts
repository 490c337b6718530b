/** Fixed-window attempt counter per key (client address), kept in process memory. */
const g = globalThis as typeof globalThis & { __loomRunsLoginAttempts?: Map<string, { start: number; count: number }> }

export const LOGIN_WINDOW_MS = 60_000
export const LOGIN_MAX_ATTEMPTS = 10

/** Counts an attempt; returns the seconds to wait when over the limit, else 0. */
export function takeAttempt(key: string, now = Date.now()): number {
  const map = (g.__loomRunsLoginAttempts ??= new Map())
  const entry = map.get(key)
  if (!entry || now - entry.start >= LOGIN_WINDOW_MS) {
    map.set(key, { start: now, count: 1 })
    if (map.size > 10_000) for (const [k, v] of map) if (now - v.start >= LOGIN_WINDOW_MS) map.delete(k)
    return 0
  }
  entry.count++
  return entry.count > LOGIN_MAX_ATTEMPTS ? Math.ceil((entry.start + LOGIN_WINDOW_MS - now) / 1000) : 0
}
