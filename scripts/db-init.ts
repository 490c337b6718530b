/**
 * Creates Loom's tables and the dashboard's audit table where they are missing,
 * on the configured ClickHouse (remote or embedded). Existing tables are never
 * altered or dropped. `--dry-run` prints the statements without running them.
 */
import { getConfig } from '../lib/config'
import { getClient } from '../lib/clickhouse/client'
import { auditTableDdl, loomTableDdl } from '../lib/loom/ddl'
import { createMissingSchema } from '../lib/loom/init'
import { tableNames } from '../lib/loom/tables'

async function main() {
  const dryRun = process.argv.includes('--dry-run')
  const config = getConfig()
  const t = tableNames()
  console.log(`Target: ${config.mode === 'remote' ? new URL(config.clickhouse.url!).host : `embedded engine at ${config.dataDir}`}`)
  if (dryRun) {
    for (const db of Object.values(config.databases)) console.log(`CREATE DATABASE IF NOT EXISTS ${db};`)
    for (const s of loomTableDdl(t)) console.log(`${s.sql};\n`)
    console.log(`${auditTableDdl(t)};`)
    return
  }
  const report = await createMissingSchema({ history: false })
  for (const name of report.created) console.log(`created  ${name}`)
  for (const name of report.existing) console.log(`kept     ${name} (already there, not changed)`)
  console.log('Needs: CREATE DATABASE and CREATE TABLE on these databases. Nothing was altered or dropped.')
  await getClient().close()
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err)
  process.exit(1)
})
