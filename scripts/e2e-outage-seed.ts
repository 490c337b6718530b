/**
 * FOR e2e/outage.spec.ts ONLY: writes the spec's run into the ClickHouse that CLICKHOUSE_URL names
 * (the spec points it at tests/helpers/clickhouse-http-peer.ts), through the app's own modules:
 * the schema, run.begin, two checkpoints, one memory the run wrote, run.complete.
 *
 *   CLICKHOUSE_URL=http://127.0.0.1:<port> node --conditions=react-server --import tsx --conditions=react-server scripts/e2e-outage-seed.ts '<run as JSON>'
 *
 * The run is `{ org, namespace, agent, runId, goal, checkpoints: [string, string], memoryKey }`.
 */
import { getClient } from '../lib/clickhouse/client'
import { createMissingSchema } from '../lib/setup/init'
import { memorySet } from '../lib/loom/memory'
import { runBegin, runComplete } from '../lib/loom/runs'
import { wmSet } from '../lib/loom/working-memory'

type Seed = {
  org: string
  namespace: string
  agent: string
  runId: string
  goal: string
  checkpoints: [string, string]
  memoryKey: string
}

async function main() {
  if (!process.env.CLICKHOUSE_URL) throw new Error('CLICKHOUSE_URL must name the ClickHouse to seed')
  const seed = JSON.parse(process.argv[2] ?? '') as Seed

  await createMissingSchema({ history: true, runIndex: true })
  const run = { org: seed.org, namespace: seed.namespace, agent: seed.agent, runId: seed.runId }
  const ref = { ...run, userId: '', sessionId: '' }
  // A run that started a few minutes ago and finished a minute ago.
  const t0 = Date.now() - 5 * 60_000
  const at = (minutes: number) => () => new Date(t0 + minutes * 60_000)
  const writer = { actor: seed.agent, sourceTrace: 'e2e-host/pid-1' }
  await runBegin({ ...ref, goal: seed.goal, model: 'e2e-model' }, at(0))
  await wmSet({ ...ref, blockKey: 'checkpoint' }, seed.checkpoints[0], { ...writer, now: at(1) })
  await memorySet(
    { ...ref, memoryKey: seed.memoryKey, value: { region: 'eu-west', verified: true }, runId: seed.runId },
    at(2),
  )
  await wmSet({ ...ref, blockKey: 'checkpoint' }, seed.checkpoints[1], { ...writer, now: at(3) })
  await runComplete({ ...run, status: 'succeeded', turns: 2, memoriesUsed: [seed.memoryKey] }, at(4))
  await getClient().close()
  console.log(`seeded ${seed.runId}`)
}

main().catch((err) => {
  console.error(err instanceof Error ? (err.stack ?? err.message) : err)
  process.exit(1)
})
