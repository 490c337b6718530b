/**
 * Prepares the browser tests' database before the server opens it: the demo runs, plus one
 * run with 12,345 conversation turns (generated inside ClickHouse) for the timeline's cap and
 * virtualization. Usage: tsx --conditions=react-server scripts/e2e-prepare.ts <data-dir>
 */
import fs from 'node:fs'
import { BIG_RUN, EDITABLE_RUN, MERGE_RUN } from '../e2e/fixtures'
import { getClient } from '../lib/clickhouse/client'
import { command } from '../lib/clickhouse/query'
import { conversationCreate } from '../lib/loom/conversations'
import { runBegin, runComplete } from '../lib/loom/runs'
import { tableNames } from '../lib/loom/tables'
import { wmSet } from '../lib/loom/working-memory'
import { ensureReady } from '../lib/server/ready'
import { deriveNow } from '../lib/derived/derive'
import { seedBatchRuns } from './e2e-batch-runs'
import { seedLongResumeRuns, seedNearMissNowRuns } from './e2e-long-resume'
import { seedManyBlocksRun } from './e2e-many-blocks'

async function main() {
  const dir = process.argv[2]
  if (!dir) throw new Error('usage: e2e-prepare <data-dir>')
  fs.rmSync(dir, { recursive: true, force: true })
  process.env.LOOM_RUNS_DATA_DIR = dir
  process.env.LOOM_RUNS_DEMO = '1'
  const started = Date.now()
  await ensureReady()
  const t0 = new Date(Date.now() - 6 * 3600_000)
  const at = (ms: number) => () => new Date(t0.getTime() + ms)
  await runBegin({ ...BIG_RUN, goal: 'Answer a long support thread (12,345 turns)' }, at(0))
  await conversationCreate({ ...BIG_RUN, conversationId: 'conv-12k', title: 'Long thread' }, at(0))
  await command(
    `INSERT INTO ${tableNames().turns} (org, namespace, agent, user_id, session_id, conversation_id, run_id, turn_index, role, content, tool_name, input_tokens, output_tokens, cost_usd, created_at)
     SELECT {org:String}, {namespace:String}, {agent:String}, '', '', 'conv-12k', {run_id:String}, number,
       if(number % 2 = 0, 'user', 'assistant'), concat('message ', toString(number)), '', 40, 12, 0.00002,
       {t0:DateTime64(3, 'UTC')} + toIntervalMillisecond(1000 + number * 1500)
     FROM numbers({n:UInt32})`,
    {
      org: BIG_RUN.org,
      namespace: BIG_RUN.namespace,
      agent: BIG_RUN.agent,
      run_id: BIG_RUN.runId,
      t0: t0.toISOString().replace('T', ' ').replace('Z', ''),
      n: BIG_RUN.turns,
    },
  )
  await runComplete({ ...BIG_RUN, status: 'succeeded', turns: BIG_RUN.turns }, at(1000 + BIG_RUN.turns * 1500 + 1000))

  // A failed batch with an id-list checkpoint, for the editor spec.
  await runBegin({ ...EDITABLE_RUN, goal: 'Tag 10 tickets (failed at ticket-004)' }, at(0))
  const agent = { actor: EDITABLE_RUN.agent, sourceTrace: 'host-e/pid-77' }
  const done: string[] = []
  for (let i = 1; i <= 3; i++) {
    done.push(`ticket-00${i}`)
    await wmSet({ ...EDITABLE_RUN, blockKey: 'checkpoint' }, done.join(' '), { ...agent, now: at(i * 60_000) })
  }
  await runComplete({ ...EDITABLE_RUN, status: 'failed', outcome: 'ticket-004 timed out' }, at(5 * 60_000))

  // A stopped run with a JSON checkpoint, for the two-tab merge spec.
  const { state, ...mergeRun } = MERGE_RUN
  await runBegin({ ...mergeRun, goal: 'Reconcile invoices (stopped at inv-0420)' }, at(0))
  const merger = { actor: MERGE_RUN.agent, sourceTrace: 'host-m/pid-9' }
  for (let i = 1; i <= 3; i++) {
    const written = { ...state, cursor: `inv-04${17 + i}`, processed: 17 + i }
    await wmSet({ ...mergeRun, blockKey: 'checkpoint' }, JSON.stringify(written), { ...merger, now: at(i * 60_000) })
  }
  await runComplete({ ...mergeRun, status: 'failed', outcome: 'stopped by the operator at inv-0420' }, at(5 * 60_000))
  // Runs with many resumes, for the resume flow's readability.
  await seedLongResumeRuns(t0)
  await seedNearMissNowRuns(new Date(Date.now() - 2 * 3600_000))
  // Runs the batch spec clears.
  await seedBatchRuns(t0)
  // A run with thousands of blocks, for the virtualized block lists.
  await seedManyBlocksRun(t0)
  // Derived once here, so the server's first page does not wait for it.
  await deriveNow()
  await getClient().close()
  console.log(`e2e database ready in ${dir} (${Math.round((Date.now() - started) / 1000)} s)`)
}

main().catch((err) => {
  console.error(err)
  process.exit(1)
})
