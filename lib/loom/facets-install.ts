import { z } from 'zod'
import { getConfig } from '../config'
import { command, queryRows } from '../clickhouse/query'
import { runFacetsDdl, runFacetsNames } from './facets-ddl'
import { installObjects } from './install-steps'
import { tableNames } from './tables'

export type RunFacetsInstallReport = { created: string[]; dropped: string[]; backfilled: boolean; elapsedMs: number }

/**
 * Installs the run facets (table, views, backfill) unless they are complete already. The meta table
 * is created last, so an unfinished install is never read; anything it left is dropped and rebuilt.
 * Only the dashboard's own objects are created or dropped. Safe to re-run.
 */
export async function installRunFacets(options: { onStep?: (step: string) => void } = {}): Promise<RunFacetsInstallReport> {
  const started = Date.now()
  const { databases } = getConfig()
  const f = runFacetsNames(databases.runs)
  const ddl = runFacetsDdl(tableNames(databases), f)
  const rows = await queryRows(
    'SELECT name FROM system.tables WHERE database = {db:String}',
    { db: databases.runs },
    z.object({ name: z.string() }),
  )
  const before = new Set(rows.map((r) => `${databases.runs}.${r.name}`))
  if (before.has(f.meta)) return { created: [], dropped: [], backfilled: false, elapsedMs: 0 }
  await command(`CREATE DATABASE IF NOT EXISTS ${databases.runs}`)
  const { created, dropped } = await installObjects({ before, drop: ddl.drop, objects: ddl.objects, backfill: ddl.backfill, onStep: options.onStep })
  await command(ddl.meta)
  await command(`INSERT INTO ${f.meta} (installed_at) VALUES (now64(3))`)
  created.push(f.meta)
  return { created, dropped, backfilled: true, elapsedMs: Date.now() - started }
}
