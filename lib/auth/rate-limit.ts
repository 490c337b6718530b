/**
 * Failed-credential counters, kept in process memory. A client address that failed more than
 * `max` times within `windowMs` must wait for the window to end; a user name is only slowed, and
 * only by failures from many clients (UserFailures).
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

/**
 * Failed attempts per user name, with the clients they came from. A user is under a wide attack
 * when, within the window, `minFailures` attempts failed from at least `minClients` different
 * clients: then each attempt for that name waits `slowMs` before its password is checked. It is
 * never refused: a few clients (each held by its own limit) cannot lock the user out, and a wide
 * attack only goes slower.
 */
export class UserFailures {
  private readonly entries = new Map<string, { start: number; total: number; clients: Set<string> }>()

  constructor(
    readonly minFailures: number,
    readonly minClients: number,
    readonly windowMs: number,
    readonly slowMs: number,
    readonly capacity: number,
  ) {}

  /** How long an attempt for this name waits before its password check (0: none). Creates nothing. */
  slowdownMs(user: string, now = Date.now()): number {
    const e = this.entries.get(user)
    if (!e) return 0
    if (now - e.start >= this.windowMs) {
      this.entries.delete(user)
      return 0
    }
    return e.total >= this.minFailures && e.clients.size >= this.minClients ? this.slowMs : 0
  }

  /** Counts one failure for the name from this client (most recently used: last to be evicted). */
  fail(user: string, client: string, now = Date.now()): void {
    const old = this.entries.get(user)
    this.entries.delete(user)
    const e = !old || now - old.start >= this.windowMs ? { start: now, total: 0, clients: new Set<string>() } : old
    e.total++
    // Only whether there are `minClients` of them matters: the set stays small.
    if (e.clients.size < this.minClients) e.clients.add(client)
    this.entries.set(user, e)
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
/** Failed attempts per user name per minute, from all clients together, that make a wide attack… */
export const MAX_FAILURES_PER_USER = 20
/** …when they came from at least this many clients. */
export const WIDE_ATTACK_CLIENTS = 5
/** How long each attempt for a user under a wide attack waits before its password is checked. */
export const USER_SLOWDOWN_MS = 1_000
const CAPACITY = 10_000

const g = globalThis as typeof globalThis & { __loomRunsLimiters?: { clients: FailureLimiter; users: UserFailures } }

export function limiters() {
  g.__loomRunsLimiters ??= {
    clients: new FailureLimiter(MAX_FAILURES_PER_CLIENT, FAILURE_WINDOW_MS, CAPACITY),
    users: new UserFailures(MAX_FAILURES_PER_USER, WIDE_ATTACK_CLIENTS, FAILURE_WINDOW_MS, USER_SLOWDOWN_MS, CAPACITY),
  }
  return g.__loomRunsLimiters
}
