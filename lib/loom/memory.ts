import { randomUUID } from 'node:crypto'
import { z } from 'zod'
import { selectRows } from '../clickhouse/query'
import { insertRows } from './insert'
import { param, sql, trusted } from '../clickhouse/sql'
import { toChTime } from '../tables/time'
import { identityParams, nextVersion, systemClock, type Clock, type Identity } from './identity'
import { versionString } from '../tables/values'
import { withKeyLock } from './keyed-mutex'
import { identityScope } from './scope'
import { tableNames, source } from './tables'

export type MemorySetInput = Identity & {
  memoryKey: string
  value: unknown
  runId?: string
  memoryType?: string
  confidence?: number
  pinned?: boolean
  tags?: string[]
  actor?: string
  /** Id for a memory key written for the first time (default: a random UUID); later versions keep the first id. */
  memoryId?: string
}

/** `memory.set`: a new version of the claim; with run_id it is attributed to that run. */
export function memorySet(input: MemorySetInput, now: Clock = systemClock) {
  const key = JSON.stringify([
    'mem',
    input.org,
    input.namespace,
    input.agent,
    input.userId,
    input.sessionId,
    input.memoryKey,
  ])
  return withKeyLock(key, async () => {
    const [prev] = await selectRows(
      sql`SELECT memory_id, version, created_at FROM ${trusted(source(tableNames().memory, { final: true }))}
       WHERE ${identityScope(input)} AND memory_key = ${param('memory_key', 'String', input.memoryKey)}
       LIMIT 1`,
      z.object({ memory_id: z.string(), version: versionString, created_at: z.string() }),
    )
    const at = toChTime(now())
    const version = nextVersion(prev?.version ?? null)
    await insertRows(tableNames().memory, [
      {
        ...identityParams(input),
        memory_key: input.memoryKey,
        memory_id: prev?.memory_id ?? input.memoryId ?? randomUUID(),
        memory_type: input.memoryType ?? 'fact',
        value: JSON.stringify(input.value),
        run_id: input.runId ?? '',
        version,
        status: 'live',
        confidence: input.confidence ?? 0.8,
        pinned: input.pinned ? 1 : 0,
        tags: input.tags ?? [],
        actor: input.actor ?? input.agent,
        created_at: prev?.created_at ?? at,
        updated_at: at,
      },
    ])
    return { version }
  })
}
