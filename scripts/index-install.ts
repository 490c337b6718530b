/**
 * Installs (or upgrades) the console's derived tables on the configured ClickHouse: on a remote
 * server this is the way they get there (with `npm run db:init`); the embedded engine installs
 * them by itself. Prints what it creates and the statements first; `--dry-run` stops there;
 * `--rebuild` derives every run again from the rows even when the tables are current. Safe to re-run.
 */
import { getClient } from '../lib/clickhouse/client'
import { getConfig } from '../lib/config'
import { installDerived } from '../lib/derived/install'
import { describeRunIndex, targetText } from '../lib/setup/db-init'
import { existingTables } from '../lib/loom/install-steps'

async function main() {
  const dryRun = process.argv.includes('--dry-run')
  const rebuild = process.argv.includes('--rebuild') || process.argv.includes('--rebuild-rollup')
  // The first derivation reads every row once: give it time.
  process.env.CLICKHOUSE_REQUEST_TIMEOUT_MS ??= '600000'
  console.log(`Target: ${targetText()}`)
  describeRunIndex((line) => console.log(line), true, await existingTables([getConfig().databases.runs]))
  if (dryRun) return
  const report = await installDerived({ rebuild, onStep: (s) => console.log(`… ${s}`) })
  if (!report.derived) console.log('The derived tables are already installed; nothing changed.')
  else
    console.log(
      `Installed (${report.created.length} created, ${report.dropped.length} dropped first) and derived in ${(report.elapsedMs / 1000).toFixed(1)}s.`,
    )
  await getClient().close()
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err)
  process.exit(1)
})
