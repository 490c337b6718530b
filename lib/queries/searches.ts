import { z } from 'zod'
import { queryRows } from '../clickhouse/query'
import { chTimeToIso } from '../clickhouse/time'
import { runParams, versionString, type RunRef } from '../loom/identity'
import { runLatestRow } from '../loom/runs'
import { tableNames, source } from '../loom/tables'
import { tableExists } from './schema-presence'
import { RUN_SCOPE } from './working-memory'

export type SearchHit = {
  memoryKey: string
  score: number
  rank: number
  /** The run listed this memory in memories_used at run.complete. */
  usedByRun: boolean
  writtenBy: { agent: string; runId: string; version: string } | null
}

export type LoggedSearch = {
  searchId: string
  at: string
  query: string
  mode: string
  filters: string
  topK: number
  latencyMs: number
  userId: string
  sessionId: string
  hits: SearchHit[]
}

const searchSchema = z.object({
  search_id: z.string(),
  event_time: z.string().transform(chTimeToIso),
  query: z.string(),
  mode: z.string(),
  filters: z.string(),
  top_k: z.coerce.number(),
  latency_ms: z.coerce.number(),
  user_id: z.string(),
  session_id: z.string(),
  result_keys: z.array(z.string()),
  result_scores: z.array(z.coerce.number()),
})

const writerSchema = z.object({ memory_key: z.string(), writer_agent: z.string(), writer_run: z.string(), latest_version: versionString })

/** Every logged search of the run with its ranked hits; says when the trace log is not there. */
export async function runSearches(run: RunRef, signal?: AbortSignal) {
  const t = tableNames()
  if (!(await tableExists(t.searchTrace, signal))) {
    return { searches: [] as LoggedSearch[], traceLog: 'missing' as const }
  }
  const [rows, runRow] = await Promise.all([
    queryRows(
      `SELECT search_id, toString(event_time) AS event_time, query, toString(mode) AS mode, filters, top_k, latency_ms,
          user_id, session_id, result_keys, result_scores
       FROM ${source(t.searchTrace)} WHERE ${RUN_SCOPE}
       ORDER BY event_time LIMIT 5000`,
      runParams(run),
      searchSchema,
      { signal },
    ),
    runLatestRow(run, signal),
  ])
  const used = new Set(runRow?.memories_used ?? [])
  const keys = [...new Set(rows.flatMap((r) => r.result_keys))]
  const writers = new Map<string, z.infer<typeof writerSchema>>()
  if (keys.length > 0) {
    const found = await queryRows(
      `SELECT memory_key, argMax(agent, version) AS writer_agent, argMax(run_id, version) AS writer_run, max(version) AS latest_version
       FROM ${source(t.memory)}
       WHERE org = {org:String} AND namespace = {namespace:String} AND memory_key IN {keys:Array(String)}
       GROUP BY memory_key`,
      { org: run.org, namespace: run.namespace, keys: keys.slice(0, 10_000) },
      writerSchema,
      { signal },
    )
    for (const w of found) writers.set(w.memory_key, w)
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
    hits: r.result_keys.map((k, i) => {
      const w = writers.get(k)
      return {
        memoryKey: k,
        score: r.result_scores[i] ?? 0,
        rank: i + 1,
        usedByRun: used.has(k),
        writtenBy: w && w.writer_run ? { agent: w.writer_agent, runId: w.writer_run, version: w.latest_version } : null,
      }
    }),
  }))
  return { searches, traceLog: rows.length > 0 ? ('on' as const) : ('empty' as const) }
}
