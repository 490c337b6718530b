import type { z } from 'zod'
import { selectJsonArrayBytes, selectRows } from '../clickhouse/query'
import { sql, trusted } from '../clickhouse/sql'
import { isoTimeSql } from '../tables/time'
import type { Block, BlockSummary } from '../endpoints/blocks'
import type { RunRef } from '../loom/identity'
import {
  toBlock,
  toBlockSummary,
  WM_COLUMNS,
  WM_SUMMARY_COLUMNS,
  wmRowSchema,
  wmSummaryRowSchema,
} from '../tables/working-memory'
import { tableNames, source } from '../loom/tables'
import { workingMemoryRunScope } from './wm-run-scope'

/** The latest row of each of the run's blocks (tombstones included), checkpoint first, as `columns` select it. */
async function latestBlockRows<S extends z.ZodType>(
  run: RunRef,
  columns: string,
  schema: S,
  signal?: AbortSignal,
): Promise<z.infer<S>[]> {
  return selectRows(
    sql`SELECT ${trusted(columns)} FROM ${trusted(source(tableNames().workingMemory, { final: true }))}
     WHERE ${await workingMemoryRunScope(run, signal)}
     ORDER BY block_key != 'checkpoint', user_id, session_id, block_key`,
    schema,
    { signal },
  )
}

/** Every block of the run, latest version each (tombstones included), checkpoint first. */
export async function runBlocks(run: RunRef, signal?: AbortSignal): Promise<Block[]> {
  return (await latestBlockRows(run, WM_COLUMNS, wmRowSchema, signal)).map(toBlock)
}

/**
 * The same list as runBlocks without content: on a run with thousands of blocks the contents are
 * megabytes that a picker never shows.
 */
export async function runBlockSummaries(run: RunRef, signal?: AbortSignal): Promise<BlockSummary[]> {
  return (await latestBlockRows(run, WM_SUMMARY_COLUMNS, wmSummaryRowSchema, signal)).map(toBlockSummary)
}

/** The columns of a `Block`, named and typed as the API sends them (see toBlock); `content` only when asked for. */
const blockJsonColumns = (withContent: boolean) => `user_id AS userId, session_id AS sessionId, block_key AS blockKey,
  toString(version) AS version,${withContent ? ' content,' : ''} toBool(is_deleted) AS isDeleted, toUInt32(char_limit) AS charLimit,
  toUInt32(lengthUTF8(content)) AS chars, actor, source_trace AS sourceTrace,
  ${isoTimeSql('updated_at')} AS updatedAt`

/**
 * runBlocks (or, without content, runBlockSummaries) as the JSON text of its array, formatted by
 * ClickHouse: the same blocks, fields and values, without parsing and re-serializing megabytes in Node.
 */
export async function runBlocksJson(run: RunRef, opts: { content: boolean }, signal?: AbortSignal): Promise<Buffer> {
  return selectJsonArrayBytes(
    sql`SELECT ${trusted(blockJsonColumns(opts.content))} FROM ${trusted(source(tableNames().workingMemory, { final: true }))}
     WHERE ${await workingMemoryRunScope(run, signal)}
     ORDER BY block_key != 'checkpoint', user_id, session_id, block_key`,
    { signal },
  )
}
