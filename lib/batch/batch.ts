import { randomUUID } from 'node:crypto'
import { classifyClickHouseError } from '../clickhouse/query'
import { AppError } from '../errors'
import { auditHasBatchColumn } from '../loom/audit'
import { pick } from '../object'
import { clearBlock, restoreBlock, type OperatorWriteResult } from '../operator/writes'
import { withForesight } from './foresight'
import { planBatch, RUNNING, RUNNING_NOTE } from './plan'
import type { BatchBody } from './schema'
import { issueToken, itemKey, readToken, type BatchRequestShape } from './token'
import { keepBatch, keptItem, requireBatchTable, type KeptItem, type KeptRequest } from './store'
import type { BatchItem, BatchPreview, BatchResult, BatchResultItem } from './types'

function shapeOf(body: BatchBody): BatchRequestShape {
  return pick(body, ['filter', 'blockKey', 'action', 'before', 'runs', 'force'])
}

/** Dry run: what each matched run's block would become, and a token that proves this preview. */
export async function previewBatch(body: BatchBody, signal?: AbortSignal): Promise<BatchPreview> {
  const shape = shapeOf(body)
  const items = await withForesight(await planBatch(shape, signal), signal)
  const token = issueToken(
    shape,
    items.map((i) => ({
      key: itemKey(i),
      fromVersion: i.fromVersion,
      toVersion: i.toVersion,
      skip: i.action === 'skip',
    })),
  )
  return { items, total: items.length, token }
}

/** One write of a batch or an undo: the result item, and the content it wrote (null when nothing was). */
export type Written = { item: BatchResultItem; content: string | null }

export async function writeItem(
  item: BatchItem,
  from: string,
  to: string | null,
  options: { action: 'clear' | 'restore'; reason: string; force: boolean },
  operator: string,
  batchId: string,
): Promise<Written> {
  const ref = {
    org: item.org,
    namespace: item.namespace,
    agent: item.agent,
    runId: item.runId,
    userId: item.userId,
    sessionId: item.sessionId,
    blockKey: item.blockKey,
  }
  // The preview skipped running runs unless the operator forced them: a forced item is written as a forced single write.
  const w = { ref, operator, reason: options.reason, expectedVersion: from, batchId, force: options.force }
  const previewed = { ...item, fromVersion: from, toVersion: to }
  try {
    let result: OperatorWriteResult
    if (options.action === 'clear') result = await clearBlock(w)
    else result = await restoreBlock({ ...w, version: to ?? '' })
    return {
      item: {
        ...previewed,
        outcome: 'done',
        newVersion: result.block.version,
        ...(result.confirmed ? {} : { message: result.warning }),
      },
      content: result.block.isDeleted ? '' : result.block.content,
    }
  } catch (err) {
    const e = err instanceof AppError ? err : classifyClickHouseError(err)
    if (e.code === 'conflict') {
      const current = e.details?.current as { version?: string } | null | undefined
      return {
        item: { ...previewed, outcome: 'conflict', currentVersion: current?.version ?? null, message: e.message },
        content: null,
      }
    }
    if (e.code === 'run_active')
      return { item: { ...previewed, outcome: 'skipped', why: RUNNING, message: RUNNING_NOTE }, content: null }
    return { item: { ...previewed, outcome: 'error', message: e.message }, content: null }
  }
}

/**
 * Keeps the batch with its items. The writes have landed by now: a failure to keep it is reported
 * on the answer (each write's audit row still names the batch), never as a failed batch.
 */
export async function keep(
  batch: {
    batchId: string
    actor: string
    action: 'clear' | 'restore' | 'undo'
    blockKey: string
    filter: Record<string, unknown>
    request: KeptRequest | null
    reason: string
    undoes: string | null
  },
  items: KeptItem[],
  startedAt: Date,
): Promise<string | undefined> {
  try {
    // Kept under the time it started, so it sorts before the writes it made.
    await keepBatch({ ...batch, at: startedAt.toISOString(), items })
    return undefined
  } catch (err) {
    const e = classifyClickHouseError(err)
    return `The writes landed (each audited with batch id ${batch.batchId}), but the batch could not be kept, so it cannot be undone from the console: ${e.message}`
  }
}

/** The request as kept: dates as ISO text, no token or reason. */
function keptRequest(body: BatchBody): KeptRequest {
  const f = body.filter
  const filter = Object.fromEntries(
    Object.entries(f)
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => [k, v instanceof Date ? v.toISOString() : v]),
  )
  return {
    filter,
    blockKey: body.blockKey,
    action: body.action,
    ...(body.before ? { before: body.before.toISOString() } : {}),
    ...(body.runs ? { runs: body.runs } : {}),
    ...(body.force ? { force: true } : {}),
  }
}

/**
 * Real run: the token must prove a preview of this same request. Each previewed item is written
 * with expectedVersion = the preview's fromVersion, one after the other; an item whose block moved
 * since is a conflict (nothing written) and the others go on. Every write is audited with the batch id.
 */
export async function runBatch(body: BatchBody, operator: string, signal?: AbortSignal): Promise<BatchResult> {
  const shape = shapeOf(body)
  const previewed = readToken(body.token ?? '', shape)
  if (!(await auditHasBatchColumn(signal))) {
    throw new AppError(
      'unavailable',
      'The audit table has no batch_id column yet, so batch writes cannot be audited: run `npm run db:init` (it adds the column)',
    )
  }
  await requireBatchTable(signal)
  const plan = await planBatch(shape, signal)
  const batchId = randomUUID()
  const startedAt = new Date()
  const items: BatchResultItem[] = []
  const written = new Map<BatchResultItem, string | null>()
  let matched = 0
  for (const item of plan) {
    const token = previewed.get(itemKey(item))
    if (!token) {
      items.push({
        ...item,
        outcome: 'skipped',
        message: 'not in the preview: the run matched the filter after the preview was made',
      })
      continue
    }
    matched++
    if (token.skip) {
      items.push({
        ...item,
        fromVersion: token.fromVersion,
        toVersion: token.toVersion,
        outcome: 'skipped',
        message: item.why ?? 'skipped in the preview',
      })
      continue
    }
    if (item.action === 'skip' && item.why === RUNNING) {
      // Started running (or checkpointed again) since the preview: left alone, as the preview would now say.
      items.push({
        ...item,
        fromVersion: token.fromVersion,
        toVersion: token.toVersion,
        outcome: 'skipped',
        message: RUNNING_NOTE,
      })
      continue
    }
    if (item.fromVersion !== token.fromVersion || token.fromVersion === null) {
      // Moved since the preview: the conflict check would refuse it; say so without trying.
      items.push({
        ...item,
        fromVersion: token.fromVersion,
        toVersion: token.toVersion,
        action: shape.action,
        outcome: 'conflict',
        currentVersion: item.fromVersion,
        message: `The block moved on since the preview: it was version ${token.fromVersion}, the latest is ${item.fromVersion ?? 'none'}. Nothing was written.`,
      })
      continue
    }
    const w = await writeItem(
      { ...item, action: shape.action },
      token.fromVersion,
      token.toVersion,
      { action: shape.action, reason: body.reason ?? '', force: body.force === true },
      operator,
      batchId,
    )
    written.set(w.item, w.content)
    items.push(w.item)
  }
  const request = keptRequest(body)
  const warning = await keep(
    {
      batchId,
      actor: operator,
      action: shape.action,
      blockKey: shape.blockKey,
      filter: request.filter,
      request,
      reason: body.reason ?? '',
      undoes: null,
    },
    items.map((i) => keptItem(i, written.get(i) ?? null)),
    startedAt,
  )
  return { batchId, items, notMatched: previewed.size - matched, ...(warning ? { warning } : {}) }
}
