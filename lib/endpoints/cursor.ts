/** The keyset cursors this server issues: the runs list's and the audit page's (opaque to clients). */
import { z } from 'zod'

/**
 * Opaque keyset cursor for the runs list. It carries exactly the ORDER BY tuple
 * (started_at, org, namespace, agent, run_id) of the last row of a page.
 */
export type RunsCursor = { startedAt: string; org: string; namespace: string; agent: string; runId: string }

const CH_TIME = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d{3}$/

const cursorSchema = z.tuple([z.literal(1), z.string().regex(CH_TIME), z.string(), z.string(), z.string(), z.string()])

export function encodeCursor(c: RunsCursor): string {
  const payload = JSON.stringify([1, c.startedAt, c.org, c.namespace, c.agent, c.runId])
  return Buffer.from(payload, 'utf8').toString('base64url')
}

/** Returns null when the text is not a cursor this server issued. */
export function decodeCursor(text: string): RunsCursor | null {
  if (!/^[A-Za-z0-9_-]+$/.test(text) || text.length > 8192) return null
  let json: unknown
  try {
    json = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'))
  } catch {
    return null
  }
  const parsed = cursorSchema.safeParse(json)
  if (!parsed.success) return null
  const [, startedAt, org, namespace, agent, runId] = parsed.data
  return { startedAt, org, namespace, agent, runId }
}

/** Opaque keyset cursor of the audit page: the ORDER BY tuple of a page's last entry. */
export type AuditCursor = {
  at: string
  org: string
  namespace: string
  agent: string
  runId: string
  blockKey: string
  afterVersion: string
}

const auditCursorSchema = z.tuple([
  z.literal(1),
  z.string().regex(CH_TIME),
  z.string(),
  z.string(),
  z.string(),
  z.string(),
  z.string(),
  z.string().regex(/^\d{1,20}$/),
])

export function encodeAuditCursor(c: AuditCursor): string {
  return Buffer.from(
    JSON.stringify([1, c.at, c.org, c.namespace, c.agent, c.runId, c.blockKey, c.afterVersion]),
    'utf8',
  ).toString('base64url')
}

/** Null when the text is not a cursor this server issued. */
export function decodeAuditCursor(text: string): AuditCursor | null {
  if (!/^[A-Za-z0-9_-]+$/.test(text) || text.length > 8192) return null
  try {
    const parsed = auditCursorSchema.safeParse(JSON.parse(Buffer.from(text, 'base64url').toString('utf8')))
    if (!parsed.success) return null
    const [, at, org, namespace, agent, runId, blockKey, afterVersion] = parsed.data
    return { at, org, namespace, agent, runId, blockKey, afterVersion }
  } catch {
    return null
  }
}
