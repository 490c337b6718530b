import { queryRows } from '../clickhouse/query'
import type { Block } from '../api/types'
import { charCount, runParams, type RunRef } from '../loom/identity'
import { WM_COLUMNS, wmRowSchema, type WmRow } from '../loom/working-memory'
import { tableNames, source } from '../loom/tables'
import { wmRunScope } from './run-index'

/** Run-scoped rows: (org, namespace, agent) is the sorting-key prefix, run_id narrows within it. */
export const RUN_SCOPE =
  'org = {org:String} AND namespace = {namespace:String} AND agent = {agent:String} AND run_id = {run_id:String}'

export function toBlock(row: WmRow): Block {
  return {
    userId: row.user_id,
    sessionId: row.session_id,
    blockKey: row.block_key,
    version: row.version,
    content: row.content,
    isDeleted: row.is_deleted === 1,
    charLimit: row.char_limit,
    chars: charCount(row.content),
    actor: row.actor,
    sourceTrace: row.source_trace,
    updatedAt: row.updated_at,
  }
}

/** Every block of the run, latest version each (tombstones included), checkpoint first. */
export async function runBlocks(run: RunRef, signal?: AbortSignal): Promise<Block[]> {
  const rows = await queryRows(
    `SELECT ${WM_COLUMNS} FROM ${source(tableNames().workingMemory, { final: true })}
     WHERE ${await wmRunScope(signal)}
     ORDER BY block_key != 'checkpoint', user_id, session_id, block_key`,
    runParams(run),
    wmRowSchema,
    { signal },
  )
  return rows.map(toBlock)
}
