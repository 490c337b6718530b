/**
 * A value computed once and shared: concurrent callers wait for the same computation, and
 * later callers get the result until it is `ttlMs` old. A refresh asks for a new one, but
 * no more often than every `minRefreshMs`, so a button pressed in a loop cannot turn an
 * expensive read into a load on ClickHouse.
 */
export class SharedResult<T> {
  private value: { at: number; data: T } | null = null
  private pending: Promise<T> | null = null

  constructor(
    private readonly compute: () => Promise<T>,
    readonly ttlMs: number,
    readonly minRefreshMs: number,
  ) {}

  async get(options: { refresh?: boolean; now?: number } = {}): Promise<{ data: T; at: number; fresh: boolean }> {
    const now = options.now ?? Date.now()
    const v = this.value
    const age = v ? now - v.at : Infinity
    if (v && age < this.ttlMs && !(options.refresh && age >= this.minRefreshMs)) return { data: v.data, at: v.at, fresh: false }
    if (!this.pending) {
      this.pending = this.compute()
        .then((data) => {
          this.value = { at: Date.now(), data }
          return data
        })
        .finally(() => {
          this.pending = null
        })
    }
    const data = await this.pending
    return { data, at: this.value?.at ?? now, fresh: true }
  }

  clear(): void {
    this.value = null
  }
}
