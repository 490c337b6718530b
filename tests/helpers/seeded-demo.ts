import type { z } from 'zod'

export const DAY = 86_400_000
/** Fixed for a whole test file (a second seeding gets it too), and recent, so that no TTL drops seeded rows. */
export const NOW = new Date(Math.floor(Date.now() / DAY) * DAY)
export const SEED = 42

/** Seeds the demo into this test file's engine; the modules the demo tests read it with. */
export async function seededDemo() {
  const sc = await import('../../lib/demo/scenarios')
  const q = await import('../../lib/clickhouse/query')
  const wm = await import('../../lib/loom/working-memory')
  const runsMod = await import('../../lib/loom/runs')
  const t = (await import('../../lib/loom/tables')).tableNames()
  const { seedDemo } = await import('../../lib/demo/seed')
  const summary = await seedDemo({ seed: SEED, now: NOW })
  const rows = <T extends z.ZodType>(sql: string, params: Record<string, unknown>, schema: T) => q.queryRows(sql, params, schema)
  return { sc, q, wm, runsMod, t, summary, rows }
}

/** A ClickHouse `YYYY-MM-DD hh:mm:ss.sss` (UTC) time in milliseconds. */
export const ms = (chTime: string) => Date.parse(chTime.replace(' ', 'T') + 'Z')

export const checkpointOf = (run: { org: string; namespace: string; agent: string; runId: string; userId: string; sessionId: string }) => ({
  ...run,
  blockKey: 'checkpoint',
})

export const words = (s: string) => s.split(' ').filter(Boolean)
