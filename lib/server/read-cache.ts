/**
 * Short-lived answers for the reads many people make at once (the runs list, its analytics, a
 * run's header), so a team sharing one console does not make the one-at-a-time embedded engine
 * compute the same answer again and again.
 *
 * - Keyed by the kind of read and its normalized parameters only: nothing about who asks goes
 *   in, and what is kept is the data every signed-in role may read (never `canWrite` or any
 *   other principal-specific field). The route still checks the caller before it asks here.
 * - Identical requests in flight share one computation; a kept answer lives at most
 *   READ_CACHE_TTL_MS, and at most READ_CACHE_MAX_ENTRIES are kept (least recently used go first).
 * - Every change made through this process (the query layer's inserts and commands: console
 *   edits, clears, restores, batches, the demo agent) drops everything kept, and so does the change
 *   poll when it sees a write newer than any it saw before (a writer outside this process).
 * - Beside whole answers it holds per-run pieces (a run's flags, its checkpoint blocks) that many
 *   different answers share: see run-fragments.ts. A write drops only its runs' pieces.
 */
import 'server-only'
import { getConfig } from '../config'
import { noteCacheOutcome, onQueryEvent, runTagText, type CacheOutcome, type RunTag } from '../clickhouse/query'
import { RunFragments } from './run-fragments'
import { SharedResult } from './shared-result'

export const READ_CACHE_TTL_MS = 2_000
export const READ_CACHE_MAX_ENTRIES = 300

export type ReadKind = 'runs.list' | 'runs.analytics' | 'runs.cohorts' | 'run.detail'

export type ReadCacheStats = { hits: number; joined: number; computed: number; invalidations: number; entries: number }

/** Object keys sorted, undefined dropped, dates as ISO strings: equal requests give equal keys. */
export function normalizedKey(value: unknown): string {
  const norm = (v: unknown): unknown => {
    if (v instanceof Date) return v.toISOString()
    if (Array.isArray(v)) return v.map(norm)
    if (v && typeof v === 'object') {
      return Object.fromEntries(
        Object.keys(v)
          .filter((k) => (v as Record<string, unknown>)[k] !== undefined)
          .sort()
          .map((k) => [k, norm((v as Record<string, unknown>)[k])]),
      )
    }
    return v
  }
  return JSON.stringify(norm(value) ?? null)
}

type RunRefLike = { org: string; namespace: string; agent: string; runId: string }
const RUN_DETAIL = 'run.detail:'
/** `run.detail:[org, namespace, run_id, agent]`: a write finds the headers it touches by the first three. */
const runDetailKey = (r: RunRefLike) => `${RUN_DETAIL}${JSON.stringify([r.org, r.namespace, r.runId, r.agent])}`
const tagOfRunDetailKey = (key: string) => {
  const [org, namespace, runId] = JSON.parse(key.slice(RUN_DETAIL.length)) as string[]
  return runTagText({ org, namespace, runId })
}

class ReadCache {
  private entries = new Map<string, SharedResult<unknown>>()
  /** Per-run pieces shared by list rows and headers (run-fragments.ts), by kind. */
  readonly fragments = new Map<string, RunFragments<unknown>>()
  private counts = { hits: 0, joined: 0, computed: 0, invalidations: 0 }
  private newestChange = ''

  async read<T>(
    kind: ReadKind,
    params: unknown,
    signal: AbortSignal | undefined,
    compute: (signal: AbortSignal) => Promise<T>,
  ): Promise<T> {
    const key = kind === 'run.detail' ? runDetailKey(params as RunRefLike) : `${kind}:${normalizedKey(params)}`
    let entry = this.entries.get(key) as SharedResult<T> | undefined
    if (entry) {
      // Least recently used last in line for eviction.
      this.entries.delete(key)
      this.entries.set(key, entry as SharedResult<unknown>)
    } else {
      this.evict()
      entry = new SharedResult<T>(compute, READ_CACHE_TTL_MS, 0)
      this.entries.set(key, entry as SharedResult<unknown>)
    }
    const outcome: CacheOutcome = entry.peek() ? 'hit' : entry.computing ? 'joined' : 'computed'
    this.counts[outcome === 'hit' ? 'hits' : outcome]++
    noteCacheOutcome(outcome)
    return (await entry.get({ signal })).data
  }

  /** Drops expired answers from the old end, and the least recently used beyond the bound. */
  private evict() {
    for (const [key, e] of this.entries) {
      if (this.entries.size < READ_CACHE_MAX_ENTRIES && (e.peek() || e.computing)) break
      this.entries.delete(key)
    }
  }

  /** Forget every kept answer; computations still running finish for their callers but are not kept. */
  invalidate() {
    this.counts.invalidations++
    this.entries.clear()
    for (const f of this.fragments.values()) f.changed(null)
  }

  /**
   * A write to these runs: every list and analytics answer may change, and so may the header of
   * any run sharing an org, namespace and run_id (its flags compare agents, users and sessions).
   */
  invalidateRuns(runs: RunTag[]) {
    this.counts.invalidations++
    for (const f of this.fragments.values()) f.changed(runs)
    const touched = new Set(runs.map(runTagText))
    for (const key of [...this.entries.keys()]) {
      if (!key.startsWith(RUN_DETAIL) || touched.has(tagOfRunDetailKey(key))) this.entries.delete(key)
    }
  }

  /** The change poll saw writes up to `changedAt` (ISO): a newer one than before means kept answers may be stale. */
  noteChange(changedAt: string) {
    if (changedAt > this.newestChange) {
      this.newestChange = changedAt
      this.invalidate()
    }
  }

  stats(): ReadCacheStats {
    return { ...this.counts, entries: this.entries.size }
  }
}

const g = globalThis as typeof globalThis & { __loomRunsReadCache?: ReadCache }

function cache(): ReadCache {
  if (!g.__loomRunsReadCache) {
    const c = new ReadCache()
    onQueryEvent((e) => {
      if (e.kind !== 'write') return
      if (e.runs) c.invalidateRuns(e.runs)
      else c.invalidate()
    })
    g.__loomRunsReadCache = c
  }
  return g.__loomRunsReadCache
}

/** The answer for this read, shared with identical requests in flight or kept for a moment. */
export function cachedRead<T>(
  kind: ReadKind,
  params: unknown,
  signal: AbortSignal | undefined,
  compute: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  // The benchmark measures what each request costs the engine: nothing kept, nothing shared.
  if (getConfig().bench) return compute(signal ?? new AbortController().signal)
  return cache().read(kind, params, signal, compute)
}

/**
 * The kept per-run pieces of one kind (`flags`, `checkpoints`), or null in benchmark mode (which
 * measures what each request costs the engine). Kept as long as a read-cache answer.
 */
export function runFragments<V>(kind: string): RunFragments<V> | null {
  if (getConfig().bench) return null
  const all = cache().fragments
  let f = all.get(kind)
  if (!f) {
    f = new RunFragments<unknown>(READ_CACHE_TTL_MS)
    all.set(kind, f)
  }
  return f as RunFragments<V>
}

/** Passes a change-poll answer through, dropping kept answers when it reports a newer write than any seen. */
export function noteRunChanges<C extends { runs: { changedAt: string }[] }>(changes: C): C {
  let newest = ''
  for (const r of changes.runs) if (r.changedAt > newest) newest = r.changedAt
  if (newest) cache().noteChange(newest)
  return changes
}

export function readCacheStats(): ReadCacheStats {
  return cache().stats()
}

export function invalidateReadCache(): void {
  cache().invalidate()
}
