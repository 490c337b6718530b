import 'server-only'
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto'
import { getConfig } from '../config'
import { AppError } from '../errors'
import type { BatchFilter, BatchRunKey } from './schema'
import { runKeyText } from '../loom/identity'

/** A preview stays good for this long; after that the operator previews again. */
export const TOKEN_TTL_MS = 30 * 60_000

/** What a batch request asks for, independent of the runs it happens to match. */
export type BatchRequestShape = {
  filter: BatchFilter
  blockKey: string
  action: 'clear' | 'restore'
  before?: Date
  runs?: BatchRunKey[]
  /** Write into runs that are still running too. */
  force?: boolean
}

/** An undo of a kept batch: the batch it takes back (and whether it writes into running runs). */
export type UndoRequestShape = { undo: string; force?: boolean }

/** One previewed item as the token remembers it. */
export type TokenItem = { key: string; fromVersion: string | null; toVersion: string | null; skip: boolean }

const g = globalThis as typeof globalThis & { __loomRunsBatchKey?: Buffer }

/** Configured secret (shared by every console process) or a random one per process. */
function key(): Buffer {
  const configured = getConfig().sessionSecret
  if (configured) return createHash('sha256').update(`batch-token\u0000${configured}`).digest()
  g.__loomRunsBatchKey ??= randomBytes(32)
  return g.__loomRunsBatchKey
}

function sign(payload: string): string {
  return createHmac('sha256', key()).update(payload).digest('base64url')
}

/** The request in one canonical text: fixed field order, times as ISO, flags and runs sorted. */
export function canonicalRequest(r: BatchRequestShape | UndoRequestShape): string {
  if ('undo' in r) return JSON.stringify(['undo', r.undo, r.force === true])
  const f = r.filter
  const runs = r.runs?.map(runKeyText).sort()
  return JSON.stringify([
    f.org ?? null,
    f.namespace ?? null,
    f.agent ?? null,
    f.status ?? null,
    f.q ?? null,
    f.from?.toISOString() ?? null,
    f.to?.toISOString() ?? null,
    f.flag ? [...f.flag].sort() : null,
    r.blockKey,
    r.action,
    r.before?.toISOString() ?? null,
    runs ?? null,
    r.force === true,
  ])
}

/** A short digest naming one block of one run (the token carries these, not the names). */
export function itemKey(i: {
  org: string
  namespace: string
  agent: string
  runId: string
  userId: string
  sessionId: string
}): string {
  return createHash('sha256')
    .update(JSON.stringify([i.org, i.namespace, i.agent, i.runId, i.userId, i.sessionId]))
    .digest('base64url')
    .slice(0, 16)
}

type Payload = { v: 1; r: string; e: number; i: [string, string | null, string | null, 0 | 1][] }

/** Signs the preview: the request and each item's (run, fromVersion, toVersion). */
export function issueToken(
  request: BatchRequestShape | UndoRequestShape,
  items: TokenItem[],
  now = Date.now(),
): string {
  const payload: Payload = {
    v: 1,
    r: createHash('sha256').update(canonicalRequest(request)).digest('base64url'),
    e: now + TOKEN_TTL_MS,
    i: items.map((x) => [x.key, x.fromVersion, x.toVersion, x.skip ? 1 : 0]),
  }
  const text = Buffer.from(JSON.stringify(payload), 'utf8').toString('base64url')
  return `${text}.${sign(text)}`
}

function mismatch(message: string): AppError {
  return new AppError('conflict', message, { details: { field: 'token' } })
}

/**
 * The previewed items a token proves, keyed by item key. A token that is not ours, was issued for
 * another filter, block, action or time, or is too old, is a 409: preview again.
 */
export function readToken(
  token: string,
  request: BatchRequestShape | UndoRequestShape,
  now = Date.now(),
): Map<string, TokenItem> {
  const [text, sig] = token.split('.')
  if (!text || !sig) throw mismatch('token is not a batch preview token from this console: preview again')
  const expected = Buffer.from(sign(text))
  const given = Buffer.from(sig)
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) {
    throw mismatch(
      'token is not a batch preview token from this console (or the console restarted since): preview again',
    )
  }
  const payload = JSON.parse(Buffer.from(text, 'base64url').toString('utf8')) as Payload
  const digest = createHash('sha256').update(canonicalRequest(request)).digest('base64url')
  if (payload.r !== digest) {
    throw mismatch(
      'token does not match this filter, block, action and time: it was issued for another preview. Preview again',
    )
  }
  if (payload.e < now) throw mismatch('token has expired (a preview is good for 30 minutes): preview again')
  return new Map(
    payload.i.map(([k, from, to, skip]) => [k, { key: k, fromVersion: from, toVersion: to, skip: skip === 1 }]),
  )
}
