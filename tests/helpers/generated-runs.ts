import { getClient } from '../../lib/clickhouse/client'
import { runCommandWith } from '../../lib/clickhouse/query'
import { trusted } from '../../lib/clickhouse/sql'
import { getConfig } from '../../lib/config'
import * as gen from '../../scripts/bench/generate'

/**
 * Loads generated runs (the benchmark's generator, small scale) into the embedded engine the test
 * points at, through Loom's tables and the query layer, so the next read derives them as it would
 * an agent's writes. Only the runs and working-memory jobs run. Call after start-up.
 */
export async function loadGeneratedRuns(
  scale: { runs: number; versions: number; turns: number; memories: number; searches: number },
  options: { salt: number; anchorMs: number; spanDays: number; cpOnlyRatio: number },
  batch: number,
) {
  const client = getClient()
  const exec = async (sql: string) => {
    await runCommandWith(trusted(sql), { max_execution_time: 0 })
  }
  const select = async <T>(sql: string) =>
    (await (await client.query({ query: sql, format: 'JSONEachRow' })).json()) as T[]
  const opts = gen.defaultOptions(options)
  const { calibration } = await gen.calibrate(select, scale, opts)
  const jobs = gen.tableJobs(opts, calibration, scale, getConfig().databases)
  for (const job of jobs.slice(0, 2)) {
    for (let start = 0; start < scale.runs; start += batch)
      await exec(job.sql(start, Math.min(batch, scale.runs - start)))
  }
  return { exec, select }
}
