import { z } from 'zod'
import { toChTime } from '../tables/time'
import { selectRows } from '../clickhouse/query'
import { insertRows } from './insert'
import { param, sql, trusted } from '../clickhouse/sql'
import { AppError } from '../errors'
import { toBlock, WM_COLUMNS, wmRowSchema, type WmRow } from '../tables/working-memory'
import { identityParams, nextVersion, systemClock, type BlockRef, type Identity, type WriterContext } from './identity'
import { charCount } from '../tables/values'
import { withKeyLock } from './keyed-mutex'
import { latestRow } from './latest-row'
import { blockScope, identityScope } from './scope'
import { tableNames, source } from './tables'

export const DEFAULT_CHAR_LIMIT = 4096

export function blockLockKey(ref: BlockRef) {
  return JSON.stringify(['wm', ref.org, ref.namespace, ref.agent, ref.userId, ref.sessionId, ref.runId, ref.blockKey])
}

/** The row `FINAL` returns for the block (highest version; a tombstone included), or null. */
export async function wmLatestRow(ref: BlockRef, signal?: AbortSignal): Promise<WmRow | null> {
  return latestRow(tableNames().workingMemory, WM_COLUMNS, blockScope(ref), wmRowSchema, signal)
}

/** `working_memory.get` / `resume`: the latest content, or null when absent or cleared. */
export async function wmGet(ref: BlockRef, signal?: AbortSignal): Promise<string | null> {
  const row = await wmLatestRow(ref, signal)
  return row && row.is_deleted === 0 ? row.content : null
}

/**
 * The one refusal of a stale write ('0' = the writer saw no block). `current` is the block as the
 * API shows it, so a console reload can start from it.
 */
export function checkExpectedVersion(expected: string, latest: WmRow | null): void {
  if ((latest?.version ?? '0') === expected) return
  throw new AppError(
    'conflict',
    latest
      ? `The block moved on since you opened it: you started from version ${expected}, the latest is ${latest.version}. Nothing was written.`
      : `The block does not exist any more (you started from version ${expected}). Nothing was written.`,
    { details: { current: latest ? toBlock(latest) : null } },
  )
}

export type WriteOptions = {
  /** Refuse the write (409) unless the block's latest version is exactly this ('0' = block absent). */
  expectedVersion?: string
  /** char_limit for a block that does not exist yet; an existing block keeps its own. */
  charLimit?: number
  /** After inserting, read back and report whether FINAL returns our row. */
  verify?: boolean
}

export type WriteResult = {
  row: WmRow
  previous: WmRow | null
  /** Set when verify is on: false if another writer tied or overtook this write. */
  confirmed?: boolean
  finalRow?: WmRow | null
}

export type BlockContent = { content: string; isDeleted: boolean }

/**
 * Decides the new content from the block's latest row, or throws to refuse the write. It runs under
 * the block's lock on the only read of that row, so whatever it checks still holds at the insert.
 */
export type Compose = (previous: WmRow | null) => BlockContent | Promise<BlockContent>

/** Every write of a block: one read of its latest row and one insert, both under the block's lock. */
export async function writeBlock(
  ref: BlockRef,
  ctx: WriterContext,
  compose: Compose,
  opts: WriteOptions = {},
): Promise<WriteResult> {
  return withKeyLock(blockLockKey(ref), async () => {
    const previous = await wmLatestRow(ref)
    if (opts.expectedVersion !== undefined) checkExpectedVersion(opts.expectedVersion, previous)
    const { content, isDeleted } = await compose(previous)
    const charLimit = previous?.char_limit ?? opts.charLimit ?? DEFAULT_CHAR_LIMIT
    const chars = charCount(content)
    if (chars > charLimit) {
      throw new AppError('too_large', `content has ${chars} characters, over the block's char_limit of ${charLimit}`, {
        details: { chars, charLimit },
      })
    }
    const now = (ctx.now ?? systemClock)()
    const row = {
      ...identityParams(ref),
      run_id: ref.runId,
      block_key: ref.blockKey,
      content,
      char_limit: charLimit,
      version: nextVersion(previous?.version ?? null),
      is_deleted: isDeleted ? 1 : 0,
      actor: ctx.actor,
      source_trace: ctx.sourceTrace,
      updated_at: toChTime(now),
    }
    await insertRows(tableNames().workingMemory, [row])
    const written = wmRowSchema.parse(row)
    if (!opts.verify) return { row: written, previous }
    // Another process (an agent on another host) does not take this lock: only a read after the
    // insert can tell whether it tied or overtook us.
    const finalRow = await wmLatestRow(ref)
    const confirmed =
      !!finalRow &&
      finalRow.version === written.version &&
      finalRow.actor === written.actor &&
      finalRow.source_trace === written.source_trace &&
      finalRow.updated_at === written.updated_at
    return { row: written, previous, confirmed, finalRow }
  })
}

/** `working_memory.set`: refused (nothing written) over char_limit; otherwise version = latest + 1. */
export function wmSet(ref: BlockRef, content: string, ctx: WriterContext, opts: WriteOptions = {}) {
  return writeBlock(ref, ctx, () => ({ content, isDeleted: false }), opts)
}

/** `working_memory.append`: latest content + "\n" + text, no newline when the block is empty or absent. */
export function wmAppend(ref: BlockRef, text: string, ctx: WriterContext, opts: WriteOptions = {}) {
  return writeBlock(
    ref,
    ctx,
    (previous) => {
      const base = previous && previous.is_deleted === 0 ? previous.content : ''
      return { content: base === '' ? text : `${base}\n${text}`, isDeleted: false }
    },
    opts,
  )
}

/** `working_memory.delete`: a tombstone row, content '' and is_deleted = 1. */
export function wmDelete(ref: BlockRef, ctx: WriterContext, opts: WriteOptions = {}) {
  return writeBlock(ref, ctx, () => ({ content: '', isDeleted: true }), opts)
}

/** `working_memory.render`: every live block of the run, latest version each, ordered by block_key. */
export async function wmRender(identity: Identity, runId: string, signal?: AbortSignal): Promise<string> {
  const table = trusted(source(tableNames().workingMemory, { final: true }))
  const rows = await selectRows(
    // Tombstones are filtered after the FINAL collapse (outer query), never before it.
    sql`SELECT block_key, content FROM (
       SELECT block_key, content, is_deleted FROM ${table}
       WHERE ${identityScope(identity)} AND run_id = ${param('run_id', 'String', runId)}
     )
     WHERE is_deleted = 0
     ORDER BY block_key`,
    z.object({ block_key: z.string(), content: z.string() }),
    { signal },
  )
  return rows.map((r) => `## ${r.block_key}\n${r.content}`).join('\n\n')
}
