/**
 * Writes the schema and one run with one checkpoint (v1, "item-1") into the embedded data directory
 * LOOM_RUNS_DATA_DIR, from its own process: `tsx tests/helpers/seed-small-run.ts <org> <ns> <agent> <runId>`.
 */
import { createMissingSchema } from '../../lib/setup/init'
import { runBegin } from '../../lib/loom/runs'
import { wmSet } from '../../lib/loom/working-memory'

async function main() {
  const [org, namespace, agent, runId] = process.argv.slice(2)
  await createMissingSchema({ history: true })
  const run = { org, namespace, agent, runId, userId: '', sessionId: '' }
  await runBegin({ ...run, goal: 'a small run' })
  await wmSet({ ...run, blockKey: 'checkpoint' }, 'item-1', { actor: agent, sourceTrace: 'h/1' })
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err)
    process.exit(1)
  },
)
