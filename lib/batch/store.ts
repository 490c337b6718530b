import 'server-only'
import { createHash } from 'node:crypto'
import { z } from 'zod'
import { selectRows } from '../clickhouse/query'
import { insertRows } from '../loom/insert'
import { param, sql, trusted, type Sql } from '../clickhouse/sql'
import { chTimeToIso, toChTime } from '../tables/time'
import { AppError, notFound } from '../errors'
import { tableNames } from '../loom/tables'
import { tableExists } from '../clickhouse/schema-presence'
import type {
  BatchCounts,
  BatchDetail,
  BatchOutcome,
  BatchRecord,
  BatchResultItem,
  KeptItem,
  KeptRequest,
} from './types'

export type { BatchCounts, BatchDetail, BatchRecord, KeptItem, KeptRequest } from './types'

export const contentHash = (content: string) => `sha256:${createHash('sha256').update(content, 'utf8').digest('hex')}`

/** Counts of each outcome. */
export function countOutcomes(items: { outcome: BatchOutcome }[]): BatchCounts {
  const counts: BatchCounts = { done: 0, conflict: 0, skipped: 0, error: 0 }
  for (const i of items) counts[i.outcome]++
  return counts
}

type ItemBlock = Pick<KeptItem, 'org' | 'namespace' | 'agent' | 'runId' | 'userId' | 'sessionId' | 'blockKey'>

/** The run and block an item is about: the fields every batch item (kept, previewed or undone) starts with. */
export function itemBlock(i: ItemBlock): ItemBlock {
  return {
    org: i.org,
    namespace: i.namespace,
    agent: i.agent,
    runId: i.runId,
    userId: i.userId,
    sessionId: i.sessionId,
    blockKey: i.blockKey,
  }
}

/** A result item in the form a kept batch stores (the preview's foresight is not kept). */
export function keptItem(i: BatchResultItem, written: string | null): KeptItem {
  return {
    ...itemBlock(i),
    action: i.action,
    fromVersion: i.fromVersion,
    fromDeleted: i.current?.version === i.fromVersion ? i.current.isDeleted : false,
    toVersion: i.toVersion,
    newVersion: i.outcome === 'done' ? (i.newVersion ?? null) : null,
    outcome: i.outcome,
    contentHash: i.outcome === 'done' && written !== null ? contentHash(written) : null,
    ...(i.message ? { message: i.message } : {}),
  }
}

/** Batch writes need somewhere to be kept: refused (before anything is written) without the table. */
export async function requireBatchTable(signal?: AbortSignal): Promise<void> {
  if (!(await tableExists(tableNames().batches, signal))) {
    throw new AppError(
      'unavailable',
      `The batches table ${tableNames().batches} is missing, so a batch could not be kept or taken back: run \`npm run db:init\` (it creates it)`,
    )
  }
}

export async function keepBatch(b: Omit<BatchDetail, 'undoneBy' | 'counts'>): Promise<void> {
  const counts = countOutcomes(b.items)
  await insertRows(tableNames().batches, [
    {
      batch_id: b.batchId,
      at: toChTime(b.at),
      actor: b.actor,
      action: b.action,
      block_key: b.blockKey,
      filter: JSON.stringify({ filter: b.filter, request: b.request }),
      reason: b.reason,
      undoes: b.undoes ?? '',
      ...counts,
      items: JSON.stringify(b.items),
    },
  ])
}

const rowSchema = z.object({
  batch_id: z.string(),
  at: z.string().transform(chTimeToIso),
  actor: z.string(),
  action: z.enum(['clear', 'restore', 'undo']),
  block_key: z.string(),
  filter: z.string(),
  reason: z.string(),
  undoes: z.string(),
  done: z.coerce.number(),
  conflict: z.coerce.number(),
  skipped: z.coerce.number(),
  error: z.coerce.number(),
  undone_by: z.string(),
})

const storedFilter = z.object({
  filter: z.record(z.string(), z.unknown()),
  request: z.custom<KeptRequest>().nullable(),
})

function toRecord(r: z.infer<typeof rowSchema>): BatchRecord {
  const parsed = storedFilter.safeParse(JSON.parse(r.filter))
  return {
    batchId: r.batch_id,
    at: r.at,
    actor: r.actor,
    action: r.action,
    blockKey: r.block_key,
    filter: parsed.success ? parsed.data.filter : {},
    request: parsed.success ? parsed.data.request : null,
    reason: r.reason,
    counts: { done: r.done, conflict: r.conflict, skipped: r.skipped, error: r.error },
    undoneBy: r.undone_by || null,
    undoes: r.undoes || null,
  }
}

/** The columns of a kept batch with the latest batch that undid it (an undo row naming it). */
function batchSelect(where: Sql, extra = '') {
  const t = trusted(`${tableNames().batches} FINAL`)
  return sql`SELECT b.batch_id AS batch_id, toString(b.at) AS at, b.actor AS actor, b.action AS action, b.block_key AS block_key,
      b.filter AS filter, b.reason AS reason, b.undoes AS undoes, b.done AS done, b.conflict AS conflict, b.skipped AS skipped,
      b.error AS error, ifNull(u.undone_by, '') AS undone_by${trusted(extra)}
    FROM (SELECT * FROM ${t} WHERE ${where}) AS b
    LEFT JOIN (SELECT undoes, argMax(batch_id, at) AS undone_by FROM ${t} WHERE undoes != '' GROUP BY undoes) AS u ON u.undoes = b.batch_id
    SETTINGS join_use_nulls = 1`
}

/** Recent batches, newest first. Empty when the table is missing (nothing was kept). */
export async function listBatches(limit: number, signal?: AbortSignal): Promise<BatchRecord[]> {
  if (!(await tableExists(tableNames().batches, signal))) return []
  const rows = await selectRows(
    sql`SELECT * FROM (${batchSelect(sql`1`)}) ORDER BY at DESC, batch_id DESC LIMIT ${param('limit', 'UInt32', limit)}`,
    rowSchema,
    { signal },
  )
  return rows.map(toRecord)
}

const itemsSchema = z.array(z.custom<KeptItem>((v) => typeof v === 'object' && v !== null && 'runId' in v))

/** One kept batch with its items; 404 when no batch has that id. */
export async function getBatch(batchId: string, signal?: AbortSignal): Promise<BatchDetail> {
  if (!(await tableExists(tableNames().batches, signal)))
    throw notFound(`No batch ${batchId}: batches are not kept on this install yet (run \`npm run db:init\`)`)
  const rows = await selectRows(
    batchSelect(sql`batch_id = ${param('batch', 'String', batchId)}`, ', b.items AS items'),
    rowSchema.extend({ items: z.string() }),
    { signal },
  )
  const row = rows[0]
  if (!row) throw notFound(`No batch ${batchId}`)
  return { ...toRecord(row), items: itemsSchema.parse(JSON.parse(row.items)) }
}
