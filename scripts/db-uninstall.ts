/**
 * Removes every object the console created in ClickHouse: the history capture (its view first, so
 * no agent insert fires it meanwhile), the derived tables, the audit log and stored logouts, and
 * whatever an earlier version left. Loom's own tables are never touched.
 *   --dry-run  print the statements, change nothing
 */
import { getClient } from '../lib/clickhouse/client'
import { getConfig } from '../lib/config'
import { dropStatement, uninstallConsole, uninstallPlan } from '../lib/derived/install'
import { targetText } from '../lib/setup/db-init'
import { existingTables } from '../lib/loom/install-steps'

async function main() {
  const args = process.argv.slice(2)
  const unknown = args.filter((a) => a !== '--dry-run')
  if (unknown.length) throw new Error(`unknown option ${unknown.join(' ')} (known: --dry-run)`)
  const dryRun = args.includes('--dry-run')
  const { databases } = getConfig()
  console.log(`Target: ${targetText()}${dryRun ? ' (dry run: nothing is changed)' : ''}\n`)
  const plan = uninstallPlan(await existingTables([databases.runs, databases.loom]))
  if (plan.length === 0) console.log('Nothing of the console is installed.')
  else console.log(`Drops ${plan.length} objects of the console (Loom's tables are not touched):\n`)
  for (const name of plan) console.log(`${dropStatement(name)};`)
  if (!dryRun && plan.length) {
    const dropped = await uninstallConsole({ onStep: (s) => console.log(`… ${s}`) })
    console.log(`\nRemoved ${dropped.length} objects.`)
  }
  await getClient().close()
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err)
  process.exit(1)
})
