import { z } from 'zod'

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

const CH_TIME = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d{3}$/
const cursorSchema = z.tuple([
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
    const parsed = cursorSchema.safeParse(JSON.parse(Buffer.from(text, 'base64url').toString('utf8')))
    if (!parsed.success) return null
    const [, at, org, namespace, agent, runId, blockKey, afterVersion] = parsed.data
    return { at, org, namespace, agent, runId, blockKey, afterVersion }
  } catch {
    return null
  }
}
