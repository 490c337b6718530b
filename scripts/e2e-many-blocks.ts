/** Writes MANY_BLOCKS_RUN for the browser tests: its checkpoint through Loom's write path, the other blocks in one INSERT. */
import { MANY_BLOCKS_RUN } from '../e2e/fixtures'
import { command } from '../lib/clickhouse/query'
import { runBegin, runComplete } from '../lib/loom/runs'
import { tableNames } from '../lib/loom/tables'
import { wmSet } from '../lib/loom/working-memory'

export async function seedManyBlocksRun(t0: Date) {
  const { blocks, ...run } = MANY_BLOCKS_RUN
  const at = (ms: number) => () => new Date(t0.getTime() + ms)
  await runBegin({ ...run, goal: `Keep notes in ${blocks.toLocaleString('en')} blocks` }, at(0))
  await wmSet({ ...run, blockKey: 'checkpoint' }, 'note-0001', {
    actor: run.agent,
    sourceTrace: 'host-b/pid-1',
    now: at(1000),
  })
  await command(
    `INSERT INTO ${tableNames().workingMemory} (org, namespace, agent, user_id, session_id, run_id, block_key, content, char_limit, version, is_deleted, actor, source_trace, updated_at)
     SELECT {org:String}, {namespace:String}, {agent:String}, '', '', {run_id:String}, concat('note-', leftPad(toString(number), 4, '0')),
       concat('Note ', toString(number), ': ', repeat('lorem ipsum ', 8)), 4096, 1, 0, {agent:String}, 'host-b/pid-1',
       {t0:DateTime64(3, 'UTC')} + toIntervalMillisecond(2000 + number * 100)
     FROM numbers(1, {n:UInt32})`,
    { ...run, run_id: run.runId, t0: t0.toISOString().replace('T', ' ').replace('Z', ''), n: blocks - 1 },
  )
  await runComplete({ ...run, status: 'succeeded' }, at(2000 + blocks * 100 + 1000))
}
