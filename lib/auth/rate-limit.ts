/**
 * Failed-credential counters, kept in process memory. A key (a client address or a user
 * name) that failed more than `max` times within `windowMs` must wait for the window to end.
 * Only failures create entries, and the map is an LRU with a size cap, so neither a flood of
 * requests nor a flood of addresses grows it without bound.
 */
export class FailureLimiter {
  private readonly entries = new Map<string, { start: number; count: number }>()

  constructor(
    readonly max: number,
    readonly windowMs: number,
    readonly capacity: number,
  ) {}

  /** Seconds to wait before this key may try again (0: it may). Creates nothing. */
  retryAfter(key: string, now = Date.now()): number {
    const e = this.entries.get(key)
    if (!e) return 0
    if (now - e.start >= this.windowMs) {
      this.entries.delete(key)
      return 0
    }
    return e.count >= this.max ? Math.max(1, Math.ceil((e.start + this.windowMs - now) / 1000)) : 0
  }

  /** Counts one failure for the key (most recently used: last to be evicted). */
  fail(key: string, now = Date.now()): void {
    const e = this.entries.get(key)
    this.entries.delete(key)
    if (!e || now - e.start >= this.windowMs) this.entries.set(key, { start: now, count: 1 })
    else this.entries.set(key, { start: e.start, count: e.count + 1 })
    while (this.entries.size > this.capacity) {
      const oldest = this.entries.keys().next().value
      if (oldest === undefined) break
      this.entries.delete(oldest)
    }
  }

  get size(): number {
    return this.entries.size
  }

  clear(): void {
    this.entries.clear()
  }
}

export const FAILURE_WINDOW_MS = 60_000
/** Failed logins or Basic credentials per client address per minute. */
export const MAX_FAILURES_PER_CLIENT = 10
/** Failed attempts per user name per minute, from all clients together. */
export const MAX_FAILURES_PER_USER = 20
const CAPACITY = 10_000

const g = globalThis as typeof globalThis & { __loomRunsLimiters?: { clients: FailureLimiter; users: FailureLimiter } }

export function limiters() {
  g.__loomRunsLimiters ??= {
    clients: new FailureLimiter(MAX_FAILURES_PER_CLIENT, FAILURE_WINDOW_MS, CAPACITY),
    users: new FailureLimiter(MAX_FAILURES_PER_USER, FAILURE_WINDOW_MS, CAPACITY),
  }
  return g.__loomRunsLimiters
}
