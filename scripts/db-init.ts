/**
 * Prepares a ClickHouse for the console in one command: creates Loom's tables and the dashboard's
 * tables where they are missing, installs the history capture and the run index. Existing tables
 * are never altered or dropped. Prints what each part creates and the grants it needs first.
 *   --dry-run     print the plan and the statements, change nothing
 *   --no-history  skip the history capture
 *   --no-index    skip the run index
 */
import { getClient } from '../lib/clickhouse/client'
import { runDbInit } from '../lib/setup/db-init'

const KNOWN = new Set(['--dry-run', '--no-history', '--no-index'])

async function main() {
  const args = process.argv.slice(2)
  const unknown = args.filter((a) => !KNOWN.has(a))
  if (unknown.length) throw new Error(`unknown option ${unknown.join(' ')} (known: ${[...KNOWN].join(', ')})`)
  const dryRun = args.includes('--dry-run')
  // The run index backfill scans the existing rows once: give it time.
  process.env.CLICKHOUSE_REQUEST_TIMEOUT_MS ??= '600000'
  await runDbInit({
    dryRun,
    history: !args.includes('--no-history'),
    runIndex: !args.includes('--no-index'),
    log: (line) => console.log(line),
  })
  if (!dryRun) await getClient().close()
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err)
  process.exit(1)
})
