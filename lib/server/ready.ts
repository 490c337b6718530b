import { getConfig } from '../config'
import { createMissingSchema } from '../loom/init'

export type ReadyState = { phase: 'starting' | 'seeding' | 'ready' | 'failed'; detail?: string }

type Holder = { promise?: Promise<void>; state: ReadyState }
const g = globalThis as typeof globalThis & { __loomRunsReady?: Holder }

function holder(): Holder {
  return (g.__loomRunsReady ??= { state: { phase: 'starting' } })
}

export function readyState(): ReadyState {
  return holder().state
}

async function prepare(h: Holder) {
  const config = getConfig()
  // Remote databases are only changed by explicit commands; read-only mode writes nothing at all.
  if (config.mode !== 'embedded' || config.readOnly) {
    h.state = { phase: 'ready' }
    return
  }
  const report = await createMissingSchema({ history: true, runIndex: true })
  if (config.demo && report.loomWasEmpty) {
    h.state = { phase: 'seeding', detail: 'writing demo runs' }
    const { seedDemo } = await import('../demo/seed')
    await seedDemo({ seed: 42 })
  }
  h.state = { phase: 'ready' }
}

/**
 * Resolves once the embedded database has its tables (and demo data on first start).
 * In remote mode nothing is created here: `npm run db:init` does that explicitly.
 * A failed preparation is retried by the next caller rather than cached forever.
 */
export function ensureReady(): Promise<void> {
  const h = holder()
  if (!h.promise) {
    h.promise = prepare(h).catch((err) => {
      h.state = { phase: 'failed', detail: err instanceof Error ? err.message : String(err) }
      h.promise = undefined
      throw err
    })
  }
  return h.promise
}
