import { z } from 'zod'
import { selectRows } from '../clickhouse/query'
import { param, sql, trusted } from '../clickhouse/sql'
import type { Block } from '../endpoints/blocks'
import type { RunRef } from '../loom/identity'
import { tableNames, source } from '../loom/tables'
import { toBlock, WM_COLUMNS, wmRowSchema, type WmRow } from '../tables/working-memory'
import { findVersionTies, isNearLimit } from '../resume/detect'
import { runAudit } from './audit'
import { runBlobs } from './context-blobs'
import { getBlockDetail } from './block-detail'
import { runConversations } from './conversations'
import type { ListCut } from './list-cut'
import { runMemories } from './memory'
import { getRunDetail } from './run-detail'
import { workingMemoryRunScope } from './wm-run-scope'
import { tableExists } from '../clickhouse/schema-presence'
import { runSearches } from './search-trace'
import { MAX_TIMELINE_LIMIT, runTimeline } from './timeline'

/** Blocks read per query: the export holds one page of blocks (and their versions) at a time. */
export const EXPORT_PAGE_BLOCKS = 500

type BlockKey = { userId: string; sessionId: string; blockKey: string }

const keyOf = (r: WmRow): BlockKey => ({ userId: r.user_id, sessionId: r.session_id, blockKey: r.block_key })
const sameBlock = (r: WmRow, k: BlockKey) =>
  r.user_id === k.userId && r.session_id === k.sessionId && r.block_key === k.blockKey

/** A block's (user_id, session_id, block_key) as a bound tuple, its placeholders named by `prefix`. */
const keyTuple = (prefix: string, k: BlockKey) =>
  sql`(${param(`${prefix}_user`, 'String', k.userId)}, ${param(`${prefix}_session`, 'String', k.sessionId)}, ${param(`${prefix}_block`, 'String', k.blockKey)})`

/** One page of the run's blocks (latest version each), in key order, after `after`. */
async function blockPage(run: RunRef, after: BlockKey | null, signal?: AbortSignal): Promise<WmRow[]> {
  return selectRows(
    sql`SELECT ${trusted(WM_COLUMNS)} FROM ${trusted(source(tableNames().workingMemory, { final: true }))}
     WHERE ${await workingMemoryRunScope(run, signal)}
       AND ${after ? sql`(user_id, session_id, block_key) > ${keyTuple('a', after)}` : trusted('1')}
     ORDER BY user_id, session_id, block_key
     LIMIT ${param('page', 'UInt32', EXPORT_PAGE_BLOCKS)}`,
    wmRowSchema,
    { signal },
  )
}

/** Every row (physical, or captured history) of the blocks from `first` to `last`, newest first per block. */
async function rowsInRange(
  run: RunRef,
  table: 'physical' | 'history',
  first: BlockKey,
  last: BlockKey,
  signal?: AbortSignal,
) {
  const t = tableNames()
  const from = table === 'physical' ? source(t.workingMemory, { part: true }) : t.history
  const schema = table === 'physical' ? wmRowSchema.extend({ part: z.string() }) : wmRowSchema
  return selectRows(
    sql`SELECT ${trusted(WM_COLUMNS)}${trusted(table === 'physical' ? ', _part AS part' : '')} FROM ${trusted(from)}
     WHERE ${await workingMemoryRunScope(run, signal)}
       AND (user_id, session_id, block_key) >= ${keyTuple('f', first)}
       AND (user_id, session_id, block_key) <= ${keyTuple('l', last)}
     ORDER BY user_id, session_id, block_key, version DESC, updated_at DESC`,
    schema,
    { signal },
  )
}

/** Pages of blocks until the run has no more. */
async function* blockPages(run: RunRef, signal?: AbortSignal): AsyncGenerator<WmRow[]> {
  let after: BlockKey | null = null
  for (;;) {
    const page = await blockPage(run, after, signal)
    if (page.length > 0) yield page
    if (page.length < EXPORT_PAGE_BLOCKS) return
    after = keyOf(page[page.length - 1])
  }
}

/**
 * Each block's versions and captured history; checkpoint blocks also carry the resume
 * explanation and flags of the Checkpoint tab. Two queries per page of blocks (plus the block
 * detail of each checkpoint block), however many blocks the run has.
 */
async function* blockDetails(run: RunRef, historyInstalled: boolean, signal?: AbortSignal): AsyncGenerator<unknown> {
  for await (const page of blockPages(run, signal)) {
    const first = keyOf(page[0])
    const last = keyOf(page[page.length - 1])
    const [physical, history] = await Promise.all([
      rowsInRange(run, 'physical', first, last, signal),
      historyInstalled ? rowsInRange(run, 'history', first, last, signal) : Promise.resolve(null),
    ])
    let p = 0
    let h = 0
    for (const latest of page) {
      const key = keyOf(latest)
      const versions: (Block & { part: string })[] = []
      while (p < physical.length && sameBlock(physical[p], key))
        versions.push({ ...toBlock(physical[p]), part: (physical[p++] as WmRow & { part: string }).part })
      let captured: Block[] | null = null
      if (history) {
        captured = []
        while (h < history.length && sameBlock(history[h], key)) captured.push(toBlock(history[h++]))
      }
      if (key.blockKey === 'checkpoint') {
        const d = await getBlockDetail({ ...run, ...key }, signal)
        yield {
          ...key,
          versions: d.versions,
          history: d.history,
          resume: {
            value: d.resume.value,
            fromVersion: d.resume.fromVersion,
            points: d.resume.points,
            explanation: d.resume.explanation,
          },
          flags: d.flags,
        }
      } else {
        yield {
          ...key,
          versions,
          history: captured,
          flags: { ties: findVersionTies(versions), nearLimit: isNearLimit(latest.content, latest.char_limit) },
        }
      }
    }
  }
}

/**
 * One JSON document with everything the console knows about a run, written as it is read:
 * blocks and their versions a page at a time, so memory and the number of queries grow with
 * pages, not with blocks. Unknown runs fail before the first byte (404).
 */
export async function exportRunStream(run: RunRef, signal?: AbortSignal): Promise<ReadableStream<Uint8Array>> {
  const detail = await getRunDetail(run, signal)
  const historyInstalled = await tableExists(tableNames().history, signal)
  const encoder = new TextEncoder()
  async function* document(): AsyncGenerator<string> {
    yield `{"exportedAt":${JSON.stringify(new Date().toISOString())},${JSON.stringify(detail).slice(1, -1)}`
    yield ',"blocks":['
    let n = 0
    for await (const page of blockPages(run, signal))
      for (const row of page) yield `${n++ ? ',' : ''}${JSON.stringify(toBlock(row))}`
    yield '],"blockDetails":['
    n = 0
    for await (const d of blockDetails(run, historyInstalled, signal)) yield `${n++ ? ',' : ''}${JSON.stringify(d)}`
    yield `],"timeline":${JSON.stringify(await runTimeline(run, MAX_TIMELINE_LIMIT, signal))}`
    // Capped lists say so here too: `cuts` names each list that was cut and its cap.
    const cuts: ListCut[] = []
    /** One section as written: its value under its name, its cut lists (named within it) added to `cuts`. */
    const section = (name: string, value: unknown, cutLists: ListCut[]) => {
      cuts.push(...cutLists.map((c) => ({ list: `${name}.${c.list}`, limit: c.limit })))
      return `,"${name}":${JSON.stringify(value)}`
    }
    const conversations = await runConversations(run, signal)
    yield section('conversations', conversations.conversations, conversations.cuts)
    const { cuts: memoryCuts, ...memories } = await runMemories(run, signal)
    yield section('memories', memories, memoryCuts)
    const searches = await runSearches(run, signal)
    yield section('searches', searches.searches, searches.cuts)
    const { cuts: blobCuts, ...blobs } = await runBlobs(run, signal)
    yield section('blobs', blobs, blobCuts)
    const audit = await runAudit(run, signal)
    // The audit section first: its cuts are among those listed after it.
    yield `${section('audit', audit.entries, audit.cuts)},"cuts":${JSON.stringify(cuts)}}`
  }
  const parts = document()
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const next = await parts.next()
        if (next.done) controller.close()
        else controller.enqueue(encoder.encode(next.value))
      } catch (err) {
        // Headers are gone already: end the download broken rather than pretend it is whole.
        controller.error(err)
      }
    },
    async cancel() {
      await parts.return(undefined)
    },
  })
}
