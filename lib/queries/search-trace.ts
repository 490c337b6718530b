import { z } from 'zod'
import { selectRows } from '../clickhouse/query'
import { param, sql, trusted } from '../clickhouse/sql'
import { chTimeToIso } from '../tables/time'
import type { RunRef } from '../loom/identity'
import { versionString } from '../tables/values'
import { runLatestRow } from '../loom/runs'
import { runScope } from '../loom/scope'
import { tableNames, source } from '../loom/tables'
import { SEARCH_COLUMNS, searchRowSchema } from '../tables/search-trace'
import { tableExists } from '../clickhouse/schema-presence'
import { SEARCHES_CAP, keepCap, overCap, type ListCut } from './list-cut'
import type { SearchHit, MemoryWrite, LoggedSearch } from '../endpoints/story'
export type { SearchHit, MemoryWrite, LoggedSearch } from '../endpoints/story'

const writeSchema = z.object({
  memory_key: z.string(),
  agent: z.string(),
  run_id: z.string(),
  version: versionString,
  updated_at: z.string().transform(chTimeToIso),
})
type WriteRow = z.infer<typeof writeSchema>

/** Stored versions kept per memory key when placing writes before or after each search. */
const WRITES_PER_KEY = 500

/**
 * A hit's writers relative to the search's time: a memory written after the search was not
 * written by whoever wrote it later, whatever its latest version says now.
 */
export function writersAt(
  writes: readonly WriteRow[],
  at: string,
): Pick<SearchHit, 'writtenBy' | 'writtenAfter' | 'searchedVersionGone'> {
  const t = Date.parse(at)
  const toWrite = (w: WriteRow): MemoryWrite => ({
    agent: w.agent,
    runId: w.run_id,
    version: w.version,
    at: w.updated_at,
  })
  // `writes` is in version order (the last one is the memory's latest).
  const before = writes.filter((w) => Date.parse(w.updated_at) <= t)
  const after = writes.filter((w) => Date.parse(w.updated_at) > t)
  const seen = before[before.length - 1]
  const later = after[after.length - 1]
  return {
    writtenBy: seen && seen.run_id ? toWrite(seen) : null,
    writtenAfter: later ? toWrite(later) : null,
    searchedVersionGone: !seen && writes.length > 0,
  }
}

/** Every logged search of the run with its ranked hits; says when the trace log is not there. */
export async function runSearches(run: RunRef, signal?: AbortSignal) {
  const t = tableNames()
  if (!(await tableExists(t.searchTrace, signal))) {
    return { searches: [] as LoggedSearch[], traceLog: 'missing' as const, cuts: [] as ListCut[] }
  }
  const [searchRows, runRow] = await Promise.all([
    selectRows(
      sql`SELECT ${trusted(SEARCH_COLUMNS)}
       FROM ${trusted(source(t.searchTrace))} WHERE ${runScope(run)}
       ORDER BY event_time LIMIT ${param('cap', 'UInt32', overCap(SEARCHES_CAP))}`,
      searchRowSchema,
      { signal },
    ),
    runLatestRow(run, signal),
  ])
  const cuts: ListCut[] = []
  const rows = keepCap(searchRows, SEARCHES_CAP, 'searches', cuts)
  const used = new Set(runRow?.memories_used ?? [])
  const keys = [...new Set(rows.flatMap((r) => r.result_keys))]
  const writes = new Map<string, WriteRow[]>()
  if (keys.length > 0) {
    const found = await selectRows(
      sql`SELECT memory_key, agent, run_id, toString(version) AS version, toString(updated_at) AS updated_at
       FROM ${trusted(source(t.memory))}
       WHERE org = ${param('org', 'String', run.org)} AND namespace = ${param('namespace', 'String', run.namespace)}
         AND memory_key IN ${param('keys', 'Array(String)', keys.slice(0, 10_000))}
       ORDER BY memory_key, version DESC, updated_at DESC
       LIMIT ${trusted(String(WRITES_PER_KEY))} BY memory_key`,
      writeSchema,
      { signal },
    )
    for (const w of found.reverse()) {
      const list = writes.get(w.memory_key)
      if (list) list.push(w)
      else writes.set(w.memory_key, [w])
    }
  }
  const searches: LoggedSearch[] = rows.map((r) => ({
    searchId: r.search_id,
    at: r.event_time,
    query: r.query,
    mode: r.mode,
    filters: r.filters,
    topK: r.top_k,
    latencyMs: r.latency_ms,
    userId: r.user_id,
    sessionId: r.session_id,
    hits: r.result_keys.map((k, i) => ({
      memoryKey: k,
      score: r.result_scores[i] ?? 0,
      rank: i + 1,
      usedByRun: used.has(k),
      ...writersAt(writes.get(k) ?? [], r.event_time),
    })),
  }))
  return { searches, traceLog: rows.length > 0 ? ('on' as const) : ('empty' as const), cuts }
}
