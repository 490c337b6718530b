/**
 * Installs the run index on the configured ClickHouse (on a remote server this is the only way it
 * gets there; the embedded engine installs it by itself). Prints what it creates first;
 * `--dry-run` stops there. Then creates the tables and materialized views in the dashboard's
 * database and backfills them from the existing rows (`INSERT … SELECT`). Safe to re-run.
 */
import { getConfig } from '../lib/config'
import { getClient } from '../lib/clickhouse/client'
import { runIndexDdl, runIndexNames } from '../lib/loom/ddl'
import { installRunIndex } from '../lib/loom/init'
import { tableNames } from '../lib/loom/tables'

async function main() {
  const dryRun = process.argv.includes('--dry-run')
  // A backfill scans the existing rows once: give it time.
  process.env.CLICKHOUSE_REQUEST_TIMEOUT_MS ??= '600000'
  const config = getConfig()
  const t = tableNames()
  const ix = runIndexNames(config.databases.runs)
  const ddl = runIndexDdl(t, ix)
  console.log(`Target: ${config.mode === 'remote' ? new URL(config.clickhouse.url!).host : `embedded engine at ${config.dataDir}`}`)
  console.log('The run index lets the runs list read a few granules per page instead of grouping every')
  console.log(`working-memory row on each request. This creates, in database ${config.databases.runs}:`)
  for (const s of ddl.objects) console.log(`  - ${s.name}: ${s.what}`)
  console.log(`  - ${ix.meta}: marks the index as complete (the dashboard reads the index only once it exists)`)
  console.log(`Then it backfills ${ix.runs}, ${ix.orphans}, ${ix.checkpoints} and ${ix.sessions} from ${t.runs} and ${t.workingMemory} (one scan each).`)
  console.log(`If an earlier version of the index (or an unfinished install) is there, its objects are dropped first and rebuilt: ${ddl.drop.join(', ')}.`)
  console.log(`It needs: CREATE TABLE and CREATE VIEW on ${config.databases.runs}, SELECT and INSERT there, SELECT on ${t.runs} and ${t.workingMemory}.`)
  console.log(`Writes to ${t.runs} and ${t.workingMemory} then also feed the views: each working-memory insert looks up its runs' keys in ${t.runs}.`)
  console.log(`To remove it: DROP TABLE each of ${ddl.drop.join(', ')} (views first, as listed).\n`)
  for (const s of ddl.objects) console.log(`${s.sql};\n`)
  for (const b of ddl.backfill) console.log(`${b.sql};\n`)
  console.log(`${ddl.meta};\n`)
  if (dryRun) return
  const report = await installRunIndex({ onStep: (s) => console.log(`… ${s}`) })
  if (!report.backfilled) console.log('The run index is already installed; nothing changed.')
  else console.log(`Installed (${report.created.length} created, ${report.dropped.length} dropped first) and backfilled in ${(report.elapsedMs / 1000).toFixed(1)}s.`)
  await getClient().close()
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err)
  process.exit(1)
})
