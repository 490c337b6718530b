/**
 * A value computed once and shared: concurrent callers wait for the same computation, and
 * later callers get the result until it is `ttlMs` old. A refresh asks for a new one, but
 * no more often than every `minRefreshMs`, so a button pressed in a loop cannot turn an
 * expensive read into a load on ClickHouse.
 *
 * The computation gets a signal that fires only when every caller waiting on it has gone away
 * (one abandoned request does not fail the others). `clear()` forgets the value and detaches a
 * computation still running: its callers get their answer, but it is not kept, and callers
 * after the clear start a new one (the data changed while it ran).
 */
import 'server-only'

export class SharedResult<T> {
  private value: { at: number; data: T } | null = null
  private pending: { promise: Promise<T>; controller: AbortController; waiters: number } | null = null
  private epoch = 0

  constructor(
    private readonly compute: (signal: AbortSignal) => Promise<T>,
    readonly ttlMs: number,
    readonly minRefreshMs: number,
  ) {}

  /** The kept value while it is younger than the TTL (no computation started). */
  peek(now = Date.now()): { data: T; at: number } | null {
    const v = this.value
    return v && now - v.at < this.ttlMs ? v : null
  }

  /** A computation is running that a caller would join. */
  get computing(): boolean {
    return this.pending !== null
  }

  async get(
    options: { refresh?: boolean; now?: number; signal?: AbortSignal } = {},
  ): Promise<{ data: T; at: number; fresh: boolean }> {
    const now = options.now ?? Date.now()
    const v = this.value
    const age = v ? now - v.at : Infinity
    if (v && age < this.ttlMs && !(options.refresh && age >= this.minRefreshMs))
      return { data: v.data, at: v.at, fresh: false }
    if (options.signal?.aborted) throw abortError()
    if (!this.pending) {
      const controller = new AbortController()
      const epoch = this.epoch
      const pending = {
        controller,
        waiters: 0,
        promise: this.compute(controller.signal).then((data) => {
          if (this.epoch === epoch) this.value = { at: Date.now(), data }
          return data
        }),
      }
      this.pending = pending
      pending.promise.then(
        () => this.pending === pending && (this.pending = null),
        () => this.pending === pending && (this.pending = null),
      )
    }
    const p = this.pending
    p.waiters++
    const data = await new Promise<T>((resolve, reject) => {
      let settled = false
      const done = () => {
        settled = true
        p.waiters--
        options.signal?.removeEventListener('abort', onAbort)
      }
      const onAbort = () => {
        if (settled) return
        done()
        if (p.waiters === 0) {
          if (this.pending === p) this.pending = null
          p.controller.abort()
        }
        reject(abortError())
      }
      options.signal?.addEventListener('abort', onAbort, { once: true })
      p.promise.then(
        (d) => {
          if (settled) return
          done()
          resolve(d)
        },
        (err: unknown) => {
          if (settled) return
          done()
          reject(err)
        },
      )
    })
    return { data, at: this.value?.at ?? now, fresh: true }
  }

  clear(): void {
    this.value = null
    this.pending = null
    this.epoch++
  }
}

function abortError(): Error {
  const err = new Error('The request was aborted')
  err.name = 'AbortError'
  return err
}
