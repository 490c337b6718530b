/**
 * Failed-credential counters, kept in process memory. A client address that failed more than
 * `max` times within `windowMs` must wait for the window to end; a user name is only slowed, and
 * only by failures from many clients (UserFailures).
 * Only failures create entries, and the map is an LRU with a size cap, so neither a flood of
 * requests nor a flood of addresses grows it without bound.
 */

/**
 * Failure entries per key that last one window from their start, in least-recently-used order with
 * a size cap: an expired entry is dropped when read, and the oldest ones go when an update
 * overflows the cap.
 */
abstract class WindowedEntries<E extends { start: number }> {
  private readonly entries = new Map<string, E>()

  constructor(
    readonly windowMs: number,
    readonly capacity: number,
  ) {}

  /** The key's entry if its window has not ended (an ended one is dropped). Creates nothing. */
  protected current(key: string, now: number): E | undefined {
    const e = this.entries.get(key)
    if (e && now - e.start >= this.windowMs) {
      this.entries.delete(key)
      return undefined
    }
    return e
  }

  /**
   * Stores the key's next entry, made from its current one (undefined when there is none or its
   * window has ended), as the most recently used: last to be evicted.
   */
  protected update(key: string, now: number, next: (current: E | undefined) => E): void {
    const old = this.entries.get(key)
    this.entries.delete(key)
    this.entries.set(key, next(!old || now - old.start >= this.windowMs ? undefined : old))
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

export class FailureLimiter extends WindowedEntries<{ start: number; count: number }> {
  constructor(
    readonly max: number,
    windowMs: number,
    capacity: number,
  ) {
    super(windowMs, capacity)
  }

  /** Seconds to wait before this key may try again (0: it may). Creates nothing. */
  retryAfter(key: string, now = Date.now()): number {
    const e = this.current(key, now)
    return e && e.count >= this.max ? Math.max(1, Math.ceil((e.start + this.windowMs - now) / 1000)) : 0
  }

  /** Counts one failure for the key (most recently used: last to be evicted). */
  fail(key: string, now = Date.now()): void {
    this.update(key, now, (e) => (e ? { start: e.start, count: e.count + 1 } : { start: now, count: 1 }))
  }
}

/**
 * Failed attempts per user name, with the clients they came from. A user is under a wide attack
 * when, within the window, `minFailures` attempts failed from at least `minClients` different
 * clients: then each attempt for that name waits `slowMs` before its password is checked. It is
 * never refused: a few clients (each held by its own limit) cannot lock the user out, and a wide
 * attack only goes slower.
 */
export class UserFailures extends WindowedEntries<{ start: number; total: number; clients: Set<string> }> {
  constructor(
    readonly minFailures: number,
    readonly minClients: number,
    windowMs: number,
    readonly slowMs: number,
    capacity: number,
  ) {
    super(windowMs, capacity)
  }

  /** How long an attempt for this name waits before its password check (0: none). Creates nothing. */
  slowdownMs(user: string, now = Date.now()): number {
    const e = this.current(user, now)
    return e && e.total >= this.minFailures && e.clients.size >= this.minClients ? this.slowMs : 0
  }

  /** Counts one failure for the name from this client (most recently used: last to be evicted). */
  fail(user: string, client: string, now = Date.now()): void {
    this.update(user, now, (old) => {
      const e = old ?? { start: now, total: 0, clients: new Set<string>() }
      e.total++
      // Only whether there are `minClients` of them matters: the set stays small.
      if (e.clients.size < this.minClients) e.clients.add(client)
      return e
    })
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
