/**
 * Installs the run index on the configured ClickHouse (on a remote server this is the only way it
 * gets there; the embedded engine installs it by itself). Prints what it creates first;
 * `--dry-run` stops there; `--rebuild-rollup` rebuilds the analytics rollup from the rows first
 * (after writes that raced on a server). Then creates the tables and materialized views in the dashboard's
 * database and backfills them from the existing rows (`INSERT … SELECT`). Safe to re-run.
 */
import { getClient } from '../lib/clickhouse/client'
import { describeRunIndex, targetText } from '../lib/loom/db-init'
import { installRunIndex } from '../lib/loom/init'
import { installRunRollup } from '../lib/loom/rollup-install'

async function main() {
  const dryRun = process.argv.includes('--dry-run')
  const rebuildRollup = process.argv.includes('--rebuild-rollup')
  // A backfill scans the existing rows once: give it time.
  process.env.CLICKHOUSE_REQUEST_TIMEOUT_MS ??= '600000'
  console.log(`Target: ${targetText()}`)
  describeRunIndex((line) => console.log(line), true)
  if (dryRun) return
  if (rebuildRollup) {
    const rollup = await installRunRollup({ rebuild: true, onStep: (s) => console.log(`… ${s}`) })
    console.log(`Rollup rebuilt from the rows in ${(rollup.elapsedMs / 1000).toFixed(1)}s.`)
  }
  const report = await installRunIndex({ onStep: (s) => console.log(`… ${s}`) })
  if (!report.backfilled) console.log('The run index is already installed; nothing changed.')
  else console.log(`Installed (${report.created.length} created, ${report.dropped.length} dropped first) and backfilled in ${(report.elapsedMs / 1000).toFixed(1)}s.`)
  await getClient().close()
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err)
  process.exit(1)
})
