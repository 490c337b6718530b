import type { DemoRun } from '../../lib/demo/scenarios'
import { seedDemo } from '../../lib/demo/seed'

export const DAY = 86_400_000
/** Fixed for a whole test file (a second seeding gets it too), and recent, so that no TTL drops seeded rows. */
export const NOW = new Date(Math.floor(Date.now() / DAY) * DAY)
export const SEED = 42

/** Seeds the demo into this test file's engine. */
export function seededDemo() {
  return seedDemo({ seed: SEED, now: NOW })
}

/** A ClickHouse `YYYY-MM-DD hh:mm:ss.sss` (UTC) time in milliseconds. */
export const ms = (chTime: string) => Date.parse(chTime.replace(' ', 'T') + 'Z')

export const checkpointOf = (run: DemoRun) => ({ ...run, blockKey: 'checkpoint' })

export const words = (s: string) => s.split(' ').filter(Boolean)
