import { and, param, sql, type Sql } from '../clickhouse/sql'
import type { BlockRef, Identity, RunRef } from './identity'

/**
 * WHERE conditions that follow the Loom tables' sorting keys, with their values bound. Every
 * run-scoped table starts its key with (org, namespace, agent), so these prune granules.
 */

/** The sorting key's prefix every run-scoped table shares: org, namespace, agent. */
function agentConditions(who: { org: string; namespace: string; agent: string }): Sql[] {
  return [
    sql`org = ${param('org', 'String', who.org)}`,
    sql`namespace = ${param('namespace', 'String', who.namespace)}`,
    sql`agent = ${param('agent', 'String', who.agent)}`,
  ]
}

/** One run: (org, namespace, agent) is the key prefix, run_id narrows within it. */
export function runScope(run: RunRef): Sql {
  return and([...agentConditions(run), sql`run_id = ${param('run_id', 'String', run.runId)}`])
}

/** One writer identity: the working-memory key's first five columns. */
export function identityScope(id: Identity): Sql {
  return and([
    ...agentConditions(id),
    sql`user_id = ${param('user_id', 'String', id.userId)}`,
    sql`session_id = ${param('session_id', 'String', id.sessionId)}`,
  ])
}

/** One block: the whole working-memory sorting key. */
export function blockScope(block: BlockRef): Sql {
  return and([
    identityScope(block),
    sql`run_id = ${param('run_id', 'String', block.runId)}`,
    sql`block_key = ${param('block_key', 'String', block.blockKey)}`,
  ])
}
