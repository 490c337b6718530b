import { command } from '../../lib/clickhouse/query'
import { seedDemo } from '../../lib/demo/seed'
import { createMissingSchema } from '../../lib/setup/init'
import { tableNames } from '../../lib/loom/tables'
import { routeSnapshot } from './route-snapshot'

/**
 * Creates the schema (history and run index included), seeds the demo, collapses working memory
 * (so the physical versions do not depend on when background merges ran) and snapshots every route.
 */
export async function prepareSnapshotEngine(seed: number, now: Date) {
  await createMissingSchema({ history: true, runIndex: true })
  await seedDemo({ seed, now })
  await command(`OPTIMIZE TABLE ${tableNames().workingMemory} FINAL`)
  return routeSnapshot(new Date(now.getTime() - 3 * 86_400_000).toISOString())
}
