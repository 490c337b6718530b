import 'server-only'
import { getConfig } from '../config'
import { loadRevocations } from '../auth/revocations'
import { createMissingSchema } from '../setup/init'

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
  await prepareSchema(h, config)
  // Logouts stored by this or another console process stay refused.
  await loadRevocations()
  h.state = { phase: 'ready' }
}

async function prepareSchema(h: Holder, config: ReturnType<typeof getConfig>) {
  // Remote databases are only changed by explicit commands; read-only mode writes nothing at all.
  if (config.mode !== 'embedded' || config.readOnly) return
  const report = await createMissingSchema({ history: true, runIndex: true })
  if (report.created.length) {
    const { recordSetup } = await import('../loom/setup-log')
    const failed = await recordSetup(
      'first start',
      `the embedded engine created ${report.created.length} tables and views`,
    )
    if (failed) console.warn(`[loom-runs] ${failed}`)
  }
  if (config.demo && report.loomWasEmpty) {
    h.state = { phase: 'seeding', detail: 'writing demo runs' }
    const { seedDemo } = await import('../demo/seed')
    await seedDemo({ seed: 42 })
    // Seeded first, derived after: one batch for every demo run, not one per write.
    h.state = { phase: 'seeding', detail: 'deriving the runs list' }
    const { deriveNow } = await import('../derived/derive')
    await deriveNow()
  }
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
