import { getConfig } from '../config'
import { runFacetsDdl, runFacetsNames } from './facets-ddl'
import { installMarked, type MarkedInstallReport } from './install-steps'
import { tableNames } from './tables'

export type RunFacetsInstallReport = MarkedInstallReport

/**
 * Installs the run facets (table, views, backfill) unless they are complete already. The meta table
 * is created last, so an unfinished install is never read; anything it left is dropped and rebuilt.
 * Only the dashboard's own objects are created or dropped. Safe to re-run.
 */
export async function installRunFacets(options: { onStep?: (step: string) => void } = {}): Promise<RunFacetsInstallReport> {
  const { databases } = getConfig()
  const f = runFacetsNames(databases.runs)
  return installMarked(f.meta, runFacetsDdl(tableNames(databases), f), options.onStep)
}
