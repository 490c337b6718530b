import { getConfig } from '../config'
import { runCommand } from '../clickhouse/query'
import { sql, trusted } from '../clickhouse/sql'
import { runIndexNames } from './run-index-ddl'
import { installMarked, type MarkedInstallReport } from './install-steps'
import { runRollupDdl, runRollupNames } from './rollup-ddl'
import { tableNames } from './tables'

/**
 * Installs the run rollup (the analytics' running totals: tables, views, backfill) unless it is
 * complete already; the run index must be installed first (the backfill reads its tables). The meta
 * table is created last, so an unfinished install is never read. `rebuild`: drop the marker first,
 * so the rollup is rebuilt from the rows (after writes that raced on a server). Safe to re-run.
 */
export async function installRunRollup(options: { onStep?: (step: string) => void; rebuild?: boolean } = {}): Promise<MarkedInstallReport> {
  const { databases } = getConfig()
  const r = runRollupNames(databases.runs)
  if (options.rebuild) await runCommand(sql`DROP TABLE IF EXISTS ${trusted(r.meta)}`)
  return installMarked(r.meta, runRollupDdl(tableNames(databases), r, runIndexNames(databases.runs)), options.onStep)
}
