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

/** The version after `latest` (versions travel as decimal strings; arithmetic is done in BigInt). */
export function nextVersion(latest: string | null): string {
  return latest === null ? '1' : (BigInt(latest) + 1n).toString()
}

/** One text per run (org, namespace, agent, runId): for maps, sets and React keys. */
export function runKeyText(r: { org: string; namespace: string; agent: string; runId: string }): string {
  return JSON.stringify([r.org, r.namespace, r.agent, r.runId])
}

/** runKeyText for a row as ClickHouse returns it (run_id). */
export function rowRunKey(r: { org: string; namespace: string; agent: string; run_id: string }): string {
  return JSON.stringify([r.org, r.namespace, r.agent, r.run_id])
}
