/**
 * Short-lived per-run pieces of a list row or a run header (its flags, its checkpoint blocks), so
 * the many list pages, filters and headers that show the same run share one computation of them
 * instead of each sending its own statement to the one-at-a-time embedded engine.
 *
 * - Kept per run key for at most `ttlMs`, at most MAX_RUNS runs per kind of piece; a read that
 *   finds any of its runs missing asks ClickHouse for all of them, in one statement.
 * - What is kept is data every signed-in role may read; nothing about who asked goes in.
 * - A change made through this process drops the pieces of the runs it writes (every run sharing
 *   their org, namespace and run_id: flags compare agents), or all of them when it does not say
 *   which; a computation that overlapped such a change answers its caller but keeps nothing of
 *   those runs. The read cache (read-cache.ts) holds one of these per kind of piece and tells them
 *   of every change, the change poll's included.
 */
import 'server-only'
import { runTagText, type RunTag } from '../clickhouse/query'
import { rowRunKey } from '../loom/identity'

type RunKeyRow = { org: string; namespace: string; agent: string; run_id: string }

const MAX_RUNS = 5_000

/** Runs written while a computation ran: `all` when a change did not say which. */
type Dirty = { all: boolean; tags: Set<string> }

export class RunFragments<V> {
  private kept = new Map<string, { at: number; tag: string; value: V }>()
  private running = new Set<Dirty>()

  constructor(private readonly ttlMs: number) {}

  /**
   * The piece of each run. When every run has a kept piece, those; otherwise one call of `compute`
   * for all of them (it answers by run key; a run it leaves out gets `empty()`), which keeps them
   * all afresh. One statement costs much the same for one run as for a page of them, so a page
   * read together expires together, and the next page over the same runs finds them all.
   */
  async many<R extends RunKeyRow>(
    runs: readonly R[],
    compute: (runs: R[]) => Promise<Map<string, V>>,
    empty: () => V,
  ): Promise<Map<string, V>> {
    const now = Date.now()
    const wanted = new Map<string, R>()
    for (const r of runs) wanted.set(rowRunKey(r), r)
    const out = new Map<string, V>()
    for (const key of wanted.keys()) {
      const hit = this.kept.get(key)
      if (!hit || now - hit.at >= this.ttlMs) break
      out.set(key, hit.value)
    }
    if (out.size === wanted.size) return out
    const dirty: Dirty = { all: false, tags: new Set() }
    this.running.add(dirty)
    let found: Map<string, V>
    try {
      found = await compute([...wanted.values()])
    } finally {
      this.running.delete(dirty)
    }
    const at = Date.now()
    out.clear()
    for (const [key, r] of wanted) {
      const value = found.get(key) ?? empty()
      out.set(key, value)
      const tag = runTagText({ org: r.org, namespace: r.namespace, runId: r.run_id })
      if (dirty.all || dirty.tags.has(tag)) continue
      this.kept.delete(key)
      this.kept.set(key, { at, tag, value })
    }
    for (const key of this.kept.keys()) {
      if (this.kept.size <= MAX_RUNS) break
      this.kept.delete(key)
    }
    return out
  }

  /** The run's kept piece while it is fresh (nothing is computed or kept). */
  peek(run: RunKeyRow): V | undefined {
    const hit = this.kept.get(rowRunKey(run))
    return hit && Date.now() - hit.at < this.ttlMs ? hit.value : undefined
  }

  /** A change to these runs (null: to any run). */
  changed(runs: RunTag[] | null) {
    if (!runs) {
      for (const d of this.running) d.all = true
      this.kept.clear()
      return
    }
    const tags = new Set(runs.map(runTagText))
    for (const d of this.running) for (const t of tags) d.tags.add(t)
    for (const [key, e] of this.kept) if (tags.has(e.tag)) this.kept.delete(key)
  }
}
