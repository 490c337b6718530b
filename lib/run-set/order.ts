import { param, sql, trusted, type Sql } from '../clickhouse/sql'
import type { RunsCursor } from '../api/cursor'
import { CH_TIME_TYPE } from './conditions'

/** The list's order, newest first; the keyset cursor carries exactly this tuple. */
export const LIST_ORDER = trusted('started_at DESC, org DESC, namespace DESC, agent DESC, run_id DESC')

/** A row's place in the list order, as the queries read it (`started_text` is ClickHouse time text). */
export type ListKey = { started_text: string; org: string; namespace: string; agent: string; run_id: string }

export function keyOfCursor(c: RunsCursor): ListKey {
  return { started_text: c.startedAt, org: c.org, namespace: c.namespace, agent: c.agent, run_id: c.runId }
}

export function cursorOfKey(k: ListKey): RunsCursor {
  return { startedAt: k.started_text, org: k.org, namespace: k.namespace, agent: k.agent, runId: k.run_id }
}

/** The cursor's start time, bound once for both keyset conditions. */
export function cursorStarted(k: ListKey): Sql {
  return param('c_started', CH_TIME_TYPE, k.started_text)
}

/** Rows strictly after `k` in the list order. */
export function keysetAfter(k: ListKey): Sql {
  return sql`(started_at, org, namespace, agent, run_id) < (${cursorStarted(k)}, ${param('c_org', 'String', k.org)}, ${param('c_namespace', 'String', k.namespace)}, ${param('c_agent', 'String', k.agent)}, ${param('c_run_id', 'String', k.run_id)})`
}
