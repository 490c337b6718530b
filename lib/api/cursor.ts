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
