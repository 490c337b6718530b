/** Three failed runs with two checkpoint versions each, for the batch spec (e2e/batch.spec.ts). */
import { BATCH_RUNS } from '../e2e/batch-fixtures'
import { runBegin, runComplete } from '../lib/loom/runs'
import { wmSet } from '../lib/loom/working-memory'

export async function seedBatchRuns(t0: Date) {
  const at = (ms: number) => () => new Date(t0.getTime() + ms)
  const { runIds, ...where } = BATCH_RUNS
  for (const [i, runId] of runIds.entries()) {
    const run = { ...where, userId: '', sessionId: '', runId }
    await runBegin({ ...run, goal: `Import batch ${i + 1} (failed half-way)` }, at(i * 1000))
    const writer = { actor: where.agent, sourceTrace: `host-b/pid-${100 + i}` }
    await wmSet({ ...run, blockKey: 'checkpoint' }, 'row-001', { ...writer, now: at(60_000 + i * 1000) })
    await wmSet({ ...run, blockKey: 'checkpoint' }, 'row-001 row-002', { ...writer, now: at(120_000 + i * 1000) })
    await runComplete({ ...where, runId, status: 'failed', outcome: 'row-003 was malformed' }, at(180_000 + i * 1000))
  }
}
