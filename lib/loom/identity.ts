import { z } from 'zod'

/** Who a row belongs to. Unset user and session are stored as ''. */
export type Identity = {
  org: string
  namespace: string
  agent: string
  userId: string
  sessionId: string
}

/** A run is (org, namespace, agent, runId); its blocks may sit under several (userId, sessionId). */
export type RunRef = { org: string; namespace: string; agent: string; runId: string }

export type BlockRef = Identity & { runId: string; blockKey: string }

export type Clock = () => Date

export type WriterContext = {
  /** `agent name` for an agent, `operator:<name>` for a console edit. */
  actor: string
  /** The writer's process context, e.g. `host-a/pid-4242`. */
  sourceTrace: string
  now?: Clock
}

export const systemClock: Clock = () => new Date()

export function identityParams(id: Identity) {
  return {
    org: id.org,
    namespace: id.namespace,
    agent: id.agent,
    user_id: id.userId,
    session_id: id.sessionId,
  }
}

/** A run and the identity its row was written under, as the Loom tables name the columns. */
export const ownerColumns = {
  org: z.string(),
  namespace: z.string(),
  agent: z.string(),
  user_id: z.string(),
  session_id: z.string(),
  run_id: z.string(),
}

/** UInt64 versions travel as decimal strings; arithmetic is done in BigInt. */
export const versionString = z.union([z.string().regex(/^\d+$/), z.number().int().nonnegative()]).transform(String)

export function nextVersion(latest: string | null): string {
  return latest === null ? '1' : (BigInt(latest) + 1n).toString()
}

/** Characters as Loom counts them: Unicode code points. */
export function charCount(text: string): number {
  let n = 0
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    // A high surrogate followed by a low one is one code point.
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
      const d = text.charCodeAt(i + 1)
      if (d >= 0xdc00 && d <= 0xdfff) i++
    }
    n++
  }
  return n
}

/** One text per run (org, namespace, agent, runId): for maps, sets and React keys. */
export function runKeyText(r: { org: string; namespace: string; agent: string; runId: string }): string {
  return JSON.stringify([r.org, r.namespace, r.agent, r.runId])
}

/** runKeyText for a row as ClickHouse returns it (run_id). */
export function rowRunKey(r: { org: string; namespace: string; agent: string; run_id: string }): string {
  return JSON.stringify([r.org, r.namespace, r.agent, r.run_id])
}
