import { routeSnapshot } from './route-snapshot'

/**
 * Creates the schema (history and run index included), seeds the demo, collapses working memory
 * (so the physical versions do not depend on when background merges ran) and snapshots every route.
 */
export async function prepareSnapshotEngine(seed: number, now: Date) {
  const { createMissingSchema } = await import('../../lib/loom/init')
  await createMissingSchema({ history: true, runIndex: true })
  const { seedDemo } = await import('../../lib/demo/seed')
  await seedDemo({ seed, now })
  const { command } = await import('../../lib/clickhouse/query')
  const { tableNames } = await import('../../lib/loom/tables')
  await command(`OPTIMIZE TABLE ${tableNames().workingMemory} FINAL`)
  return routeSnapshot(new Date(now.getTime() - 3 * 86_400_000).toISOString())
}
