import { z } from 'zod'
import { getConfig } from '../config'
import { engineUse } from '../clickhouse/client'
import { selectRows } from '../clickhouse/query'
import { param, sql } from '../clickhouse/sql'
import type { DerivedFreshness, HealthResponse } from '../endpoints/console'
import { deriveLagMs, deriveStatus } from '../derived/derive'
import { runIndexNames } from '../derived/names'
import { healthTableList, tableNames } from '../loom/tables'
import { readyState } from '../server/ready'

export async function getHealth(signal?: AbortSignal): Promise<HealthResponse> {
  const config = getConfig()
  // Read before this request's own statements, so two reads bracket exactly what ran between them.
  const engine = engineUse()
  const t = tableNames()
  const expected = healthTableList(t)
  const indexMeta = runIndexNames(config.databases.runs).meta
  const [version] = await selectRows(sql`SELECT version() AS v`, z.object({ v: z.string() }), { signal })
  const databases = [...new Set([...expected, indexMeta].map((n) => n.split('.')[0]))]
  const present = await selectRows(
    sql`SELECT concat(database, '.', name) AS name FROM system.tables WHERE database IN ${param('dbs', 'Array(String)', databases)}`,
    z.object({ name: z.string() }),
    { signal },
  )
  const have = new Set(present.map((p) => p.name))
  const state = readyState()
  return {
    mode: config.mode,
    clickhouseVersion: version?.v ?? null,
    readOnly: config.readOnly,
    schema: {
      phase: state.phase,
      detail: state.detail,
      tables: expected.map((name) => ({ name, present: have.has(name) })),
    },
    setup: {
      runIndex: have.has(indexMeta),
      history: have.has(t.history) && have.has(t.historyView),
      command: 'npm run db:init',
    },
    engine,
    derived: derivedFreshness(have.has(indexMeta)),
  }
}

/** The derived tables' freshness as the API reports it. */
export function derivedFreshness(installed: boolean): DerivedFreshness {
  const s = deriveStatus()
  return {
    lagMs: installed ? deriveLagMs() : null,
    lastRunAt: s.lastRunAt?.toISOString() ?? null,
    error: s.error,
  }
}
