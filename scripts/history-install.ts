/**
 * Installs the working-memory history capture: an append-only MergeTree table in the
 * dashboard's database and a materialized view that copies every row inserted into
 * Loom's working_memory from now on. Prints what it creates first; `--dry-run` stops there.
 */
import { getConfig } from '../lib/config'
import { getClient } from '../lib/clickhouse/client'
import { command } from '../lib/clickhouse/query'
import { historyDdl } from '../lib/loom/ddl'
import { tableNames } from '../lib/loom/tables'

async function main() {
  const dryRun = process.argv.includes('--dry-run')
  const daysArg = process.argv.find((a) => a.startsWith('--retention-days='))
  const days = daysArg ? Number(daysArg.split('=')[1]) : 90
  if (!Number.isInteger(days) || days < 1 || days > 3650)
    throw new Error('--retention-days must be a whole number from 1 to 3650')
  const config = getConfig()
  const t = tableNames()
  const statements = [`CREATE DATABASE IF NOT EXISTS ${config.databases.runs}`, ...historyDdl(t, days)]
  console.log('This creates:')
  console.log(`  - table ${t.history}: MergeTree, one row per working-memory write, kept ${days} days (TTL)`)
  console.log(`  - materialized view ${t.historyView}: copies each new row of ${t.workingMemory} into it`)
  console.log('It needs: CREATE TABLE and CREATE VIEW on the dashboard database, SELECT on the working-memory table.')
  console.log(
    'History is complete from the moment it is installed; earlier versions that merges collapsed are not recovered.\n',
  )
  for (const s of statements) console.log(`${s};\n`)
  if (dryRun) return
  for (const s of statements) await command(s)
  console.log('Installed.')
  await getClient().close()
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err)
  process.exit(1)
})
