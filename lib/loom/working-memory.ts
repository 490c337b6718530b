import { z } from 'zod'
import { chTimeToIso, toChTime } from '../clickhouse/time'
import { insertRows, queryRows } from '../clickhouse/query'
import { AppError } from '../errors'
import {
  charCount,
  identityParams,
  nextVersion,
  systemClock,
  versionString,
  type BlockRef,
  type Identity,
  type WriterContext,
} from './identity'
import { withKeyLock } from './keyed-mutex'
import { tableNames, source } from './tables'

export const DEFAULT_CHAR_LIMIT = 4096

export const wmRowSchema = z.object({
  org: z.string(),
  namespace: z.string(),
  agent: z.string(),
  user_id: z.string(),
  session_id: z.string(),
  run_id: z.string(),
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

export const WM_COLUMNS =
  'org, namespace, agent, user_id, session_id, run_id, block_key, content, char_limit, version, is_deleted, actor, source_trace, updated_at'

/** The full sorting key of one block; every block query binds all of it. */
const BLOCK_WHERE = `org = {org:String} AND namespace = {namespace:String} AND agent = {agent:String}
  AND user_id = {user_id:String} AND session_id = {session_id:String}
  AND run_id = {run_id:String} AND block_key = {block_key:String}`

function blockParams(ref: BlockRef) {
  return { ...identityParams(ref), run_id: ref.runId, block_key: ref.blockKey }
}

export function blockLockKey(ref: BlockRef) {
  return JSON.stringify(['wm', ref.org, ref.namespace, ref.agent, ref.userId, ref.sessionId, ref.runId, ref.blockKey])
}

/** The row `FINAL` returns for the block (highest version; a tombstone included), or null. */
export async function wmLatestRow(ref: BlockRef, signal?: AbortSignal): Promise<WmRow | null> {
  const rows = await queryRows(
    `SELECT ${WM_COLUMNS} FROM ${source(tableNames().workingMemory, { final: true })} WHERE ${BLOCK_WHERE} LIMIT 1`,
    blockParams(ref),
    wmRowSchema,
    { signal },
  )
  return rows[0] ?? null
}

/** `working_memory.get` / `resume`: the latest content, or null when absent or cleared. */
export async function wmGet(ref: BlockRef, signal?: AbortSignal): Promise<string | null> {
  const row = await wmLatestRow(ref, signal)
  return row && row.is_deleted === 0 ? row.content : null
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

type Compose = (previous: WmRow | null) => { content: string; isDeleted: boolean }

async function writeBlock(ref: BlockRef, ctx: WriterContext, compose: Compose, opts: WriteOptions): Promise<WriteResult> {
  return withKeyLock(blockLockKey(ref), async () => {
    const previous = await wmLatestRow(ref)
    const latestVersion = previous?.version ?? null
    if (opts.expectedVersion !== undefined && (latestVersion ?? '0') !== opts.expectedVersion) {
      throw new AppError(
        'conflict',
        `The block moved on: expected version ${opts.expectedVersion}, latest is ${latestVersion ?? 'none'}`,
        { details: { current: previous } },
      )
    }
    const { content, isDeleted } = compose(previous)
    const charLimit = previous?.char_limit ?? opts.charLimit ?? DEFAULT_CHAR_LIMIT
    const chars = charCount(content)
    if (chars > charLimit) {
      throw new AppError('too_large', `content has ${chars} characters, over the block's char_limit of ${charLimit}`, {
        details: { chars, charLimit },
      })
    }
    const now = (ctx.now ?? systemClock)()
    const row = {
      ...blockParams(ref),
      content,
      char_limit: charLimit,
      version: nextVersion(latestVersion),
      is_deleted: isDeleted ? 1 : 0,
      actor: ctx.actor,
      source_trace: ctx.sourceTrace,
      updated_at: toChTime(now),
    }
    await insertRows(tableNames().workingMemory, [row])
    const written = wmRowSchema.parse(row)
    if (!opts.verify) return { row: written, previous }
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
  const rows = await queryRows(
    // Tombstones are filtered after the FINAL collapse (outer query), never before it.
    `SELECT block_key, content FROM (
       SELECT block_key, content, is_deleted FROM ${source(tableNames().workingMemory, { final: true })}
       WHERE org = {org:String} AND namespace = {namespace:String} AND agent = {agent:String}
         AND user_id = {user_id:String} AND session_id = {session_id:String} AND run_id = {run_id:String}
     )
     WHERE is_deleted = 0
     ORDER BY block_key`,
    { ...identityParams(identity), run_id: runId },
    z.object({ block_key: z.string(), content: z.string() }),
    { signal },
  )
  return rows.map((r) => `## ${r.block_key}\n${r.content}`).join('\n\n')
}
