/**
 * What operators and setup changed, over time (GET /api/events): single writes from the audit
 * table, batches and undos from the batches table, setup runs from the setup log. Each source is a
 * small table of the console's own (a few rows per operator action), read once per request.
 */
import 'server-only'
import { z } from 'zod'
import { selectRows } from '../clickhouse/query'
import { param, sql, trusted, type Sql } from '../clickhouse/sql'
import { chTimeToIso, toChTime } from '../tables/time'
import { auditLateColumns } from '../loom/audit'
import { tableNames } from '../loom/tables'
import { links } from '../links'
import { CH_TIME_TYPE } from '../run-set/conditions'
import { existingTables } from '../clickhouse/schema-presence'
import type { ConsoleEvent } from '../endpoints/runs'
export type { ConsoleEvent } from '../endpoints/runs'

export type EventKind = 'write' | 'batch' | 'undo' | 'setup'

export type EventsQuery = { from?: Date; to?: Date; org?: string; namespace?: string; agent?: string; limit: number }

const rowSchema = z.object({
  at: z.string(),
  kind: z.enum(['write', 'batch', 'undo', 'setup']),
  actor: z.string(),
  org: z.string(),
  namespace: z.string(),
  agent: z.string(),
  run_id: z.string(),
  batch_id: z.string(),
  action: z.string(),
  block_key: z.string(),
  before_version: z.string(),
  after_version: z.string(),
  reason: z.string(),
  runs: z.coerce.number(),
  done: z.coerce.number(),
  conflict: z.coerce.number(),
  undoes: z.string(),
})

const CLEAR_PAST = { edit: 'edited', clear: 'cleared', restore: 'restored' } as Record<string, string>

function timeRange(q: EventsQuery, column = 'at'): Sql[] {
  const out: Sql[] = []
  if (q.from) out.push(sql`${trusted(column)} >= ${param('from', CH_TIME_TYPE, toChTime(q.from))}`)
  if (q.to) out.push(sql`${trusted(column)} <= ${param('to', CH_TIME_TYPE, toChTime(q.to))}`)
  return out
}

const and = (parts: Sql[]) => (parts.length ? parts.reduce((a, b) => sql`${a} AND ${b}`) : trusted('1'))

/**
 * Every column of the union, in order, for a source that lacks some of them. Each source filters in
 * a subquery of its own: ClickHouse would read a WHERE on `batch_id` as this list's `'' AS batch_id`.
 */
const COLUMNS = [
  'at',
  'kind',
  'actor',
  'org',
  'namespace',
  'agent',
  'run_id',
  'batch_id',
  'action',
  'block_key',
  'before_version',
  'after_version',
  'reason',
  'runs',
  'done',
  'conflict',
  'undoes',
]

function select(values: Record<string, string>): string {
  return COLUMNS.map((c) => `${values[c] ?? (['runs', 'done', 'conflict'].includes(c) ? '0' : "''")} AS ${c}`).join(
    ', ',
  )
}

export async function consoleEvents(q: EventsQuery, signal?: AbortSignal): Promise<{ events: ConsoleEvent[] }> {
  const t = tableNames()
  const tables = await existingTables(signal)
  const parts: Sql[] = []
  const identity: Sql[] = []
  if (q.org !== undefined) identity.push(sql`org = ${param('org', 'String', q.org)}`)
  if (q.namespace !== undefined) identity.push(sql`namespace = ${param('namespace', 'String', q.namespace)}`)
  if (q.agent !== undefined) identity.push(sql`agent = ${param('agent', 'String', q.agent)}`)
  if (tables.has(t.audit)) {
    // Single writes only: a batch's writes are one "batch" event.
    const late = await auditLateColumns(signal)
    const single = late.has('batch_id') ? [trusted("batch_id = ''")] : []
    parts.push(sql`SELECT ${trusted(select({ at: 'at', kind: "'write'", actor: 'operator', org: 'org', namespace: 'namespace', agent: 'agent', run_id: 'run_id', action: 'action', block_key: 'block_key', before_version: 'toString(before_version)', after_version: 'toString(after_version)', reason: 'reason' }))}
      FROM (SELECT * FROM ${trusted(t.audit)} WHERE ${and([...identity, ...single, ...timeRange(q)])})`)
  }
  if (tables.has(t.batches)) {
    // A batch is in scope when any of its items is (the items are JSON, one array per batch).
    const itemScope: Sql[] = []
    if (q.org !== undefined) itemScope.push(sql`JSONExtractString(x, 'org') = ${param('b_org', 'String', q.org)}`)
    if (q.namespace !== undefined)
      itemScope.push(sql`JSONExtractString(x, 'namespace') = ${param('b_namespace', 'String', q.namespace)}`)
    if (q.agent !== undefined)
      itemScope.push(sql`JSONExtractString(x, 'agent') = ${param('b_agent', 'String', q.agent)}`)
    const scoped = itemScope.length ? [sql`arrayExists(x -> ${and(itemScope)}, JSONExtractArrayRaw(items))`] : []
    parts.push(sql`SELECT ${trusted(select({ at: 'at', kind: "if(action = 'undo', 'undo', 'batch')", actor: 'actor', batch_id: 'batch_id', action: 'action', block_key: 'block_key', reason: 'reason', runs: 'length(JSONExtractArrayRaw(items))', done: 'done', conflict: 'conflict', undoes: 'undoes' }))}
      FROM (SELECT * FROM ${trusted(`${t.batches} FINAL`)} WHERE ${and([...scoped, ...timeRange(q)])})`)
  }
  if (tables.has(t.setupLog)) {
    parts.push(sql`SELECT ${trusted(select({ at: 'at', kind: "'setup'", actor: 'actor', action: 'command', reason: 'summary' }))}
      FROM (SELECT * FROM ${trusted(t.setupLog)} WHERE ${and(timeRange(q))})`)
  }
  if (parts.length === 0) return { events: [] }
  const union = parts.reduce((a, b) => sql`${a}\nUNION ALL\n${b}`)
  const rows = await selectRows(
    sql`SELECT toString(at) AS at, kind, actor, org, namespace, agent, run_id, batch_id, action, block_key, before_version, after_version, reason, runs, done, conflict, undoes
      FROM (${union}) ORDER BY at DESC, kind, batch_id, run_id LIMIT ${param('limit', 'UInt32', q.limit)}`,
    rowSchema,
    { signal },
  )
  return { events: rows.map(toEvent) }
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`

function toEvent(r: z.infer<typeof rowSchema>): ConsoleEvent {
  const at = chTimeToIso(r.at)
  if (r.kind === 'write') {
    const run = { org: r.org, namespace: r.namespace, agent: r.agent, runId: r.run_id }
    const verb = CLEAR_PAST[r.action] ?? r.action
    return {
      at,
      kind: 'write',
      actor: r.actor,
      runKey: links.runKey(run),
      summary: `${r.actor} ${verb} ${r.block_key} of ${r.run_id} (v${r.before_version} → v${r.after_version}): ${r.reason}`,
      href: links.run(run, { tab: 'audit' }),
    }
  }
  if (r.kind === 'setup')
    return { at, kind: 'setup', actor: r.actor, summary: `${r.action} by ${r.actor}: ${r.reason}` }
  const what =
    r.kind === 'undo'
      ? `undid batch ${r.undoes.slice(0, 8)}`
      : `${CLEAR_PAST[r.action] ?? r.action} ${r.block_key} in a batch`
  const outcome = `${plural(r.done, 'run')} written${r.conflict ? `, ${r.conflict} conflict${r.conflict === 1 ? '' : 's'}` : ''} of ${r.runs}`
  return {
    at,
    kind: r.kind,
    actor: r.actor,
    batchId: r.batch_id,
    summary: `${r.actor} ${what}: ${outcome}: ${r.reason}`,
    href: links.audit({ batchId: r.batch_id }),
  }
}
