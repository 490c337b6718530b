import { z } from 'zod'
import type { Block, BlockSummary } from '../endpoints/blocks'
import { chTimeToIso } from './time'
import { charCount, ownerColumns, versionString } from './values'
import { columnNames, columns, DATETIME, engine, IDENTITY_COLUMNS, type LoomTableDeclaration } from './declaration'

/** Blocks and checkpoints: one row per version of each block. */
export const workingMemoryTable = {
  key: 'workingMemory',
  contractName: 'working_memory',
  group: 'loom',
  purpose: 'Blocks and checkpoints: one row per version of each block.',
  whenMissing: 'problem',
  disables: 'Checkpoint tab, editing, the resume explainer and checkpoint-only runs: the console has nothing to show',
  columns: [
    ...IDENTITY_COLUMNS,
    ...columns(`
      run_id String
      block_key String
      content String
      char_limit UInt32 DEFAULT 4096
      version UInt64
      is_deleted UInt8 DEFAULT 0
      actor String
      source_trace String
      updated_at ${DATETIME}`),
  ],
  engine: engine('ReplacingMergeTree', 'version'),
  sortingKey: ['org', 'namespace', 'agent', 'user_id', 'session_id', 'run_id', 'block_key'],
  skipIndexes: [],
} satisfies LoomTableDeclaration

/** A working-memory row as ClickHouse returns it (every column, in the declared order). */
export const wmRowSchema = z.object({
  ...ownerColumns,
  block_key: z.string(),
  content: z.string(),
  char_limit: z.coerce.number(),
  version: versionString,
  is_deleted: z.coerce.number(),
  actor: z.string(),
  source_trace: z.string(),
  updated_at: z.string().transform(chTimeToIso),
})
export type WmRow = z.infer<typeof wmRowSchema>

/** The SELECT list `wmRowSchema` reads. */
export const WM_COLUMNS = columnNames(workingMemoryTable).join(', ')

/** A row without its content: ClickHouse counts the characters instead (code points, as charCount). */
export const wmSummaryRowSchema = wmRowSchema.omit({ content: true }).extend({ chars: z.coerce.number() })
export const WM_SUMMARY_COLUMNS = WM_COLUMNS.replace('content', 'lengthUTF8(content) AS chars')

/** A working-memory row as a content-free list shows it. */
export function toBlockSummary(row: z.infer<typeof wmSummaryRowSchema>): BlockSummary {
  return {
    userId: row.user_id,
    sessionId: row.session_id,
    blockKey: row.block_key,
    version: row.version,
    isDeleted: row.is_deleted === 1,
    charLimit: row.char_limit,
    chars: row.chars,
    actor: row.actor,
    sourceTrace: row.source_trace,
    updatedAt: row.updated_at,
  }
}

/** A working-memory row as the API shows it. */
export function toBlock(row: WmRow): Block {
  const { userId, sessionId, blockKey, version, ...rest } = toBlockSummary({ ...row, chars: charCount(row.content) })
  // The API's field order: content after version.
  return { userId, sessionId, blockKey, version, content: row.content, ...rest }
}
