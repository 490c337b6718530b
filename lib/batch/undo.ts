import 'server-only'
import { randomUUID } from 'node:crypto'
import { z } from 'zod'
import { selectRows } from '../clickhouse/query'
import { sql, trusted } from '../clickhouse/sql'
import { source, tableNames } from '../loom/tables'
import { isActive } from '../operator/active-run'
import { omit } from '../object'
import { isOperatorActor } from '../resume/rows'
import { ownerColumns } from '../tables/values'
import { keep, writeItem } from './batch'
import { withForesight } from './foresight'
import {
  identityKey,
  identityTuples,
  latestRows,
  RUNNING,
  RUNNING_NOTE,
  type LatestRow,
  type RunIdentity,
} from './plan'
import {
  getBatch,
  itemBlock,
  keptItem,
  requireBatchTable,
  type BatchDetail,
  type BatchRecord,
  type KeptItem,
} from './store'
import { issueToken, itemKey, readToken, type UndoRequestShape } from './token'
import type { BatchItem, BatchResultItem, UndoPreview, UndoResult } from './types'

import type { UndoBody } from './schema'

/** Why an undo leaves an item alone because its block moved after the batch wrote it (a conflict). */
const MOVED = 'moved'

const keyOf = (i: RunIdentity) => identityKey({ ...i, user_id: i.userId, session_id: i.sessionId, run_id: i.runId })

/** Each run's status from Loom's runs table (FINAL: its latest row), keyed like `identityKey`. */
async function statuses(runs: RunIdentity[], signal?: AbortSignal): Promise<Map<string, string>> {
  if (runs.length === 0) return new Map()
  const rows = await selectRows(
    sql`SELECT org, namespace, agent, user_id, session_id, run_id, status
      FROM ${trusted(source(tableNames().runs, { final: true }))}
      WHERE (org, namespace, agent, user_id, session_id, run_id) IN ${identityTuples(runs)}`,
    z.object({ ...ownerColumns, status: z.string() }),
    { signal },
  )
  return new Map(rows.map((r) => [identityKey(r), r.status]))
}

/**
 * What undoing the batch would do to each of its items, read now: a `done` item whose block still
 * holds the version the batch wrote goes back to its pre-batch content (a restore of that version,
 * or a clear when it was a tombstone); a block moved since is left alone (`why: moved…`, a conflict
 * when run); items the batch did not write are skipped.
 */
async function planUndo(batch: BatchDetail, force: boolean, signal?: AbortSignal): Promise<BatchItem[]> {
  const done = batch.items.filter((i) => i.outcome === 'done' && i.newVersion !== null)
  const byBlock = new Map<string, KeptItem[]>()
  for (const i of done) byBlock.set(i.blockKey, [...(byBlock.get(i.blockKey) ?? []), i])
  const latest = new Map<string, LatestRow>()
  for (const [blockKey, items] of byBlock) {
    for (const [k, row] of await latestRows(items, blockKey, signal)) latest.set(`${blockKey}\u0000${k}`, row)
  }
  const status = await statuses(done, signal)
  return batch.items.map((i): BatchItem => {
    const base = itemBlock(i)
    const runStatus = status.get(keyOf(i)) ?? 'unknown'
    if (i.outcome !== 'done' || i.newVersion === null) {
      return {
        ...base,
        status: runStatus,
        current: null,
        warnings: [],
        fromVersion: null,
        toVersion: null,
        action: 'skip',
        why: `not written by the batch (${i.outcome})`,
      }
    }
    const row = latest.get(`${i.blockKey}\u0000${keyOf(i)}`)
    const current = row
      ? {
          version: row.version,
          actor: row.actor,
          byOperator: isOperatorActor(row.actor),
          isDeleted: row.is_deleted === 1,
          updatedAt: row.updated_at,
        }
      : null
    const withRow = {
      ...base,
      status: runStatus,
      current,
      fromVersion: current?.version ?? null,
      warnings: [] as string[],
    }
    if (!current || current.version !== i.newVersion) {
      return {
        ...withRow,
        toVersion: null,
        action: 'skip',
        why: `${MOVED}: the batch wrote version ${i.newVersion}, the block is at ${current?.version ?? 'none'} now; nothing will be written`,
      }
    }
    const action = i.fromDeleted ? 'clear' : 'restore'
    const toVersion = i.fromDeleted ? null : i.fromVersion
    if (isActive(runStatus, current.updatedAt) && !force) return { ...withRow, toVersion, action: 'skip', why: RUNNING }
    if (isActive(runStatus, current.updatedAt)) withRow.warnings.push('running')
    return { ...withRow, toVersion, action }
  })
}

/** The batch without its items. */
const recordOf = (b: BatchDetail): BatchRecord => omit(b, ['items'])

const shapeOf = (batchId: string, body: UndoBody): UndoRequestShape => ({ undo: batchId, force: body.force === true })

/** Dry run of an undo: each item with its foresight, and a token that proves this preview. */
export async function previewUndo(batchId: string, body: UndoBody, signal?: AbortSignal): Promise<UndoPreview> {
  const batch = await getBatch(batchId, signal)
  const items = await withForesight(await planUndo(batch, body.force === true, signal), signal)
  const token = issueToken(
    shapeOf(batchId, body),
    items.map((i) => ({
      key: itemKey(i),
      fromVersion: i.fromVersion,
      toVersion: i.toVersion,
      skip: i.action === 'skip',
    })),
  )
  return { batch: recordOf(batch), items, total: items.length, token }
}

/**
 * Runs an undo the token proves was previewed: the same rules as a batch (expectedVersion = the
 * version the batch wrote; a block moved since is a conflict), kept as a batch of its own that
 * names the batch it takes back. An undo can itself be undone.
 */
export async function runUndo(
  batchId: string,
  body: UndoBody,
  operator: string,
  signal?: AbortSignal,
): Promise<UndoResult> {
  const shape = shapeOf(batchId, body)
  const batch = await getBatch(batchId, signal)
  const previewed = readToken(body.token ?? '', shape)
  await requireBatchTable(signal)
  const plan = await planUndo(batch, body.force === true, signal)
  const undoId = randomUUID()
  const startedAt = new Date()
  const items: BatchResultItem[] = []
  const kept: KeptItem[] = []
  let matched = 0
  for (const item of plan) {
    const token = previewed.get(itemKey(item))
    const push = (result: BatchResultItem, content: string | null = null) => {
      items.push(result)
      kept.push(keptItem(result, content))
    }
    if (!token) {
      push({ ...item, outcome: 'skipped', message: 'not in the preview' })
      continue
    }
    matched++
    if (item.action === 'skip' && item.why?.startsWith(MOVED)) {
      push({
        ...item,
        outcome: 'conflict',
        currentVersion: item.fromVersion,
        message: `The block moved on since the batch: ${item.why}`,
      })
      continue
    }
    if (token.skip || item.action === 'skip') {
      push({
        ...item,
        outcome: 'skipped',
        message: item.why === RUNNING ? RUNNING_NOTE : (item.why ?? 'skipped in the preview'),
      })
      continue
    }
    if (item.fromVersion !== token.fromVersion || token.fromVersion === null) {
      push({
        ...item,
        outcome: 'conflict',
        currentVersion: item.fromVersion,
        message: `The block moved on since the preview: it was version ${token.fromVersion}, the latest is ${item.fromVersion ?? 'none'}. Nothing was written.`,
      })
      continue
    }
    const w = await writeItem(
      item,
      token.fromVersion,
      token.toVersion,
      { action: item.action, reason: body.reason ?? '', force: body.force === true },
      operator,
      undoId,
    )
    push(w.item, w.content)
  }
  const warning = await keep(
    {
      batchId: undoId,
      actor: operator,
      action: 'undo',
      blockKey: batch.blockKey,
      filter: batch.filter,
      request: batch.request,
      reason: body.reason ?? '',
      undoes: batchId,
    },
    kept,
    startedAt,
  )
  return {
    batchId: undoId,
    undoes: batchId,
    items,
    notMatched: previewed.size - matched,
    ...(warning ? { warning } : {}),
  }
}
