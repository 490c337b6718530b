import { z } from 'zod'
import { selectRows } from '../clickhouse/query'
import { param, sql, trusted } from '../clickhouse/sql'
import { chTimeToIso } from '../tables/time'
import type { RunRef } from '../loom/identity'
import { versionString } from '../tables/values'
import { runLatestRow } from '../loom/runs'
import { runScope } from '../loom/scope'
import { tableNames, source } from '../loom/tables'
import { MEMORIES_CAP, keepCap, overCap, type ListCut } from './list-cut'
import type { UsedMemory } from '../endpoints/story'
export type { WrittenMemory, UsedMemory } from '../endpoints/story'

const writtenSchema = z.object({
  memory_key: z.string(),
  latest_version: versionString,
  latest_value: z.string(),
  latest_status: z.string(),
  latest_confidence: z.coerce.number(),
  latest_type: z.string(),
  latest_user: z.string(),
  latest_session: z.string(),
  latest_at: z.string().transform(chTimeToIso),
  versions: z.coerce.number(),
  stored: z.array(z.string()),
})

const writerSchema = z.object({
  memory_key: z.string(),
  writer_agent: z.string(),
  writer_run: z.string(),
  latest_version: versionString,
  latest_value: z.string(),
  latest_status: z.string(),
})

/** Memories the run wrote (latest version each) and those it relied on, with who wrote them. */
export async function runMemories(run: RunRef, signal?: AbortSignal) {
  const t = tableNames()
  const [writtenRows, row] = await Promise.all([
    selectRows(
      sql`SELECT memory_key, max(version) AS latest_version, argMax(value, version) AS latest_value,
          toString(argMax(status, version)) AS latest_status, argMax(confidence, version) AS latest_confidence,
          toString(argMax(memory_type, version)) AS latest_type, argMax(user_id, version) AS latest_user,
          argMax(session_id, version) AS latest_session, toString(max(updated_at)) AS latest_at, count() AS versions,
          arrayMap(v -> toString(v), arraySlice(arraySort(groupArray(version)), -50)) AS stored
       FROM ${trusted(source(t.memory))} WHERE ${runScope(run)}
       GROUP BY memory_key ORDER BY memory_key LIMIT ${param('cap', 'UInt32', overCap(MEMORIES_CAP))}`,
      writtenSchema,
      { signal },
    ),
    runLatestRow(run, signal),
  ])
  const cuts: ListCut[] = []
  const written = keepCap(writtenRows, MEMORIES_CAP, 'written', cuts)
  const usedKeys = row?.memories_used ?? []
  const recalledKeys = row?.recalled_keys ?? []
  const keys = [...new Set([...usedKeys, ...recalledKeys])]
  const writers = new Map<string, z.infer<typeof writerSchema>>()
  if (keys.length > 0) {
    // Memories are looked up in the run's own (org, namespace): the sorting-key prefix is bound.
    const rows = await selectRows(
      sql`SELECT memory_key, argMax(agent, version) AS writer_agent, argMax(run_id, version) AS writer_run, max(version) AS latest_version,
          argMax(value, version) AS latest_value, toString(argMax(status, version)) AS latest_status
       FROM ${trusted(source(t.memory))}
       WHERE org = ${param('org', 'String', run.org)} AND namespace = ${param('namespace', 'String', run.namespace)}
         AND memory_key IN ${param('keys', 'Array(String)', keys)}
       GROUP BY memory_key`,
      writerSchema,
      { signal },
    )
    for (const r of rows) writers.set(r.memory_key, r)
  }
  return {
    cuts,
    written: written.map((w) => ({
      memoryKey: w.memory_key,
      version: w.latest_version,
      value: w.latest_value,
      status: w.latest_status,
      confidence: w.latest_confidence,
      memoryType: w.latest_type,
      userId: w.latest_user,
      sessionId: w.latest_session,
      updatedAt: w.latest_at,
      versionCount: w.versions,
      versionsStored: w.stored,
    })),
    used: usedKeys,
    recalled: recalledKeys,
    relied: keys.map((k): UsedMemory => {
      const w = writers.get(k)
      return {
        memoryKey: k,
        used: usedKeys.includes(k),
        recalled: recalledKeys.includes(k),
        writtenBy: w
          ? {
              agent: w.writer_agent,
              runId: w.writer_run,
              version: w.latest_version,
              value: w.latest_value,
              status: w.latest_status,
            }
          : null,
      }
    }),
  }
}
