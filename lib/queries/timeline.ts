import { z } from 'zod'
import { JsonText } from '../clickhouse/json-bytes'
import { selectJsonArrayBytes, selectRows } from '../clickhouse/query'
import { join, param, sql, trusted, type Sql } from '../clickhouse/sql'
import { chTimeToIso, isoTimeSql, toChTime } from '../tables/time'
import type { RunRef } from '../loom/identity'
import { versionString } from '../tables/values'
import { RUN_COLUMNS, runRowSchema } from '../tables/runs'
import { runScope } from '../loom/scope'
import { tableNames, source } from '../loom/tables'
import { accountAttempts, describeAttempts, type AttemptNote } from '../resume/attempts'
import { detectResumePoints } from '../resume/detect'
import { detectResumePointsOffLoop } from '../server/diff-pool'
import { markMissedCheckpoints } from '../resume/elsewhere'
import { segments } from '../resume/segments'
import { auditLateColumns } from '../loom/audit'
import type { DetectOptions, Identity, OperatorAction, ResumePoint } from '../resume/types'
import { blockElsewhere } from './checkpoint-elsewhere'
import { existingTables } from '../clickhouse/schema-presence'
import { TIMELINE_DETAIL_CHARS, TIMELINE_KINDS, TIMELINE_STATE_CHARS, type TimelineKind } from '../api/timeline-kinds'
import { workingMemoryRunScope } from './wm-run-scope'
import type { TimelineEvent, Timeline } from '../endpoints/story'
export type { TimelineEvent, Timeline } from '../endpoints/story'

export { TIMELINE_KINDS, type TimelineKind }

/** An operator restore's label when the audit row names the version put back (see `sources`). */
const RESTORE_LABEL = /^\S+ restores checkpoint v(\d+) as v\d+: /

export const DEFAULT_TIMELINE_LIMIT = 10_000
export const MAX_TIMELINE_LIMIT = 50_000

/** The SELECT of each source: every one bound to its table's (org, namespace, agent) prefix. */
function sources(tables: Set<string>, run: RunRef, wmScope: Sql, auditRestored = false) {
  const t = tableNames()
  const wmTable = tables.has(t.history) ? t.history : t.workingMemory
  const from = (table: string) => trusted(source(table))
  const cut = (expr: string, chars = TIMELINE_DETAIL_CHARS) => trusted(`substringUTF8(${expr}, 1, ${chars})`)
  const cutState = (expr: string) => cut(expr, TIMELINE_STATE_CHARS)
  const scope = runScope(run)
  const parts: Sql[] = [
    sql`SELECT updated_at AS at,
        multiIf(block_key != 'checkpoint', 'block', is_deleted = 1, 'checkpoint.cleared', 'checkpoint') AS kind,
        if(is_deleted = 1, concat(block_key, ' cleared (tombstone)'), concat(block_key, ' v', toString(version), ' by ', actor)) AS label,
        toString(version) AS version, block_key, user_id, session_id, actor, ${cutState('content')} AS detail, source_trace AS ref
     FROM ${from(wmTable)} WHERE ${wmScope}`,
  ]
  if (tables.has(t.audit))
    parts.push(sql`SELECT at, 'operator' AS kind,
        concat(operator, ' ', action, 's ', block_key, ${trusted(
          auditRestored
            ? "if(action = 'restore' AND restored_version != '', concat(' v', restored_version, ' as v', toString(after_version)), '')"
            : "''",
        )}, ': ', reason) AS label,
        toString(after_version) AS version, block_key, user_id, session_id, concat('operator:', operator) AS actor,
        ${cutState('after_content')} AS detail, toString(action) AS ref
     FROM ${trusted(t.audit)} WHERE ${scope}`)
  if (tables.has(t.turns))
    parts.push(sql`SELECT created_at AS at, 'turn' AS kind,
        concat(toString(role), if(tool_name != '', concat(' (', tool_name, ')'), ''), ': ', substringUTF8(replaceAll(content, '\\n', ' '), 1, 80)) AS label,
        '' AS version, '' AS block_key, user_id, session_id, toString(role) AS actor, ${cut('content')} AS detail,
        concat(conversation_id, '#', toString(turn_index)) AS ref
     FROM ${from(t.turns)} WHERE ${scope}`)
  if (tables.has(t.memory))
    parts.push(sql`SELECT updated_at AS at, 'memory.write' AS kind, concat(memory_key, ' v', toString(version), ' (', toString(status), ')') AS label,
        toString(version) AS version, '' AS block_key, user_id, session_id, actor, ${cut('value')} AS detail, memory_key AS ref
     FROM ${from(t.memory)} WHERE ${scope}`)
  if (tables.has(t.searchTrace))
    parts.push(sql`SELECT event_time AS at, 'search' AS kind, concat('search "', substringUTF8(query, 1, 80), '" → ', toString(length(result_keys)), ' hits') AS label,
        '' AS version, '' AS block_key, user_id, session_id, '' AS actor,
        ${cut("arrayStringConcat(arrayMap((k, s) -> concat(k, ' ', toString(round(s, 3))), result_keys, result_scores), '\\n')")} AS detail,
        search_id AS ref
     FROM ${from(t.searchTrace)} WHERE ${scope}`)
  if (tables.has(t.contextBlobs))
    parts.push(sql`SELECT created_at AS at, 'blob' AS kind, concat('offload ', blob_key, ' (', formatReadableSize(size_bytes), ')') AS label,
        '' AS version, '' AS block_key, user_id, session_id, '' AS actor, ${cut('summary')} AS detail, blob_key AS ref
     FROM ${from(t.contextBlobs)} WHERE ${scope}`)
  return { union: join(parts, '\nUNION ALL\n'), wmTable }
}

/** run.begin per attempt (from the run row's unmerged versions, best effort) and run.complete. */
type RunPart = {
  events: TimelineEvent[]
  begins: { attempt: number; at: string }[]
  status: string | null
  attempts: number
  completedAt: string | null
  identity: Identity | null
}

async function runEvents(run: RunRef, signal?: AbortSignal): Promise<RunPart> {
  const rows = await selectRows(
    sql`SELECT ${trusted(RUN_COLUMNS)} FROM ${trusted(source(tableNames().runs))} WHERE ${runScope(run)} ORDER BY version`,
    runRowSchema,
    { signal },
  )
  if (rows.length === 0) return { events: [], begins: [], status: null, attempts: 0, completedAt: null, identity: null }
  const latest = rows[rows.length - 1]
  const begins = new Map<number, string>([[1, latest.started_at]])
  for (const r of rows) begins.set(r.attempt, r.last_begin_at)
  // Each begin under the identity its own row recorded; an attempt whose row was merged away has no known
  // identity (the run row keeps only the latest begin's user and session).
  const beganAs = new Map<number, { user_id: string; session_id: string }>()
  for (const r of rows) if (!beganAs.has(r.attempt)) beganAs.set(r.attempt, r)
  const unknown = { user_id: '', session_id: '' }
  const mk = (
    at: string,
    kind: TimelineKind,
    label: string,
    id: string,
    as: { user_id: string; session_id: string } = latest,
  ): TimelineEvent => ({
    id,
    at,
    kind,
    label,
    version: null,
    blockKey: null,
    userId: as.user_id,
    sessionId: as.session_id,
    actor: run.agent,
    detail: '',
    ref: '',
  })
  const events = [...begins.entries()]
    .sort((a, b) => a[0] - b[0])
    .map(([attempt, at]) =>
      mk(
        at,
        'run.begin',
        attempt === 1 ? 'run.begin (attempt 1)' : `run.begin (attempt ${attempt}: a resumed process)`,
        `begin-${attempt}`,
        beganAs.get(attempt) ?? unknown,
      ),
    )
  const last = rows[rows.length - 1]
  if (last.completed_at) {
    events.push({
      ...mk(last.completed_at, 'run.complete', `run.complete: ${last.status}`, 'complete'),
      detail: last.reflection || last.outcome,
    })
  }
  return {
    events,
    begins: [...begins.entries()].map(([attempt, at]) => ({ attempt, at })),
    status: last.status,
    attempts: last.attempt,
    completedAt: last.completed_at,
    identity: { agent: run.agent, userId: latest.user_id, sessionId: latest.session_id },
  }
}

/** The run row's events as rows of the union (a handful; bound as one JSON parameter). */
function runEventRows(events: TimelineEvent[]): Sql {
  const rows = events.map((e, ord) => ({
    at: toChTime(e.at),
    kind: e.kind,
    label: e.label,
    user_id: e.userId,
    session_id: e.sessionId,
    actor: e.actor,
    detail: e.detail,
    id: e.id,
    ord,
  }))
  return sql`SELECT toDateTime64(tupleElement(e, 'at'), 3, 'UTC') AS t, tupleElement(e, 'kind') AS kind, tupleElement(e, 'label') AS label,
      '' AS version, '' AS block_key, tupleElement(e, 'user_id') AS user_id, tupleElement(e, 'session_id') AS session_id,
      tupleElement(e, 'actor') AS actor, tupleElement(e, 'detail') AS detail, '' AS ref, 1 AS src, tupleElement(e, 'ord') AS ord, tupleElement(e, 'id') AS run_event_id
    FROM (SELECT arrayJoin(JSONExtract(${param('run_events', 'String', JSON.stringify(rows))},
      'Array(Tuple(at String, kind String, label String, user_id String, session_id String, actor String, detail String, id String, ord UInt32))')) AS e)`
}

/**
 * The timeline's events as ClickHouse writes them, in the API's shape and order: every source,
 * the run row's events merged in, a prefix of `limit` in time. Ties in time keep the order the
 * events had when they were merged in Node: sources before the run row's events, then by kind;
 * the rest of the key only makes the order (and so the ids) the same from one read to the next.
 */
function eventsJson(union: Sql, runPart: RunPart, limit: number, signal?: AbortSignal): Promise<Buffer> {
  return selectJsonArrayBytes(
    sql`SELECT
        -- A source's event is numbered in Node (numberEvents): a window here would sort every row in full.
        if(src = 1, run_event_id, concat(kind, '-')) AS id,
        ${trusted(isoTimeSql('t'))} AS at, kind, label, nullIf(version, '') AS version, nullIf(block_key, '') AS blockKey,
        user_id AS userId, session_id AS sessionId, actor, detail, ref
      FROM (
        SELECT toDateTime64(at, 3, 'UTC') AS t, kind, label, version, block_key, user_id, session_id, actor, detail, ref,
          0 AS src, 0 AS ord, '' AS run_event_id
        FROM (${union})
        UNION ALL
        ${runEventRows(runPart.events)}
      )
      ORDER BY t, src, kind, ord, ref, version, block_key, user_id, session_id, label
      LIMIT ${param('limit', 'UInt32', limit)}`,
    { signal },
  )
}

async function countRows(union: Sql, signal?: AbortSignal): Promise<number> {
  const [row] = await selectRows(sql`SELECT count() AS n FROM (${union})`, z.object({ n: z.coerce.number() }), {
    signal,
  })
  return row?.n ?? 0
}

const JSON_LINE_END = 0x0a

/**
 * The events of one JSON array (one per line, as ClickHouse writes JSONEachRow) whose line holds
 * `needle`: the few a resume needs, parsed without parsing the megabytes around them.
 */
function linesWith(json: Buffer, needle: string): TimelineEvent[] {
  const out: TimelineEvent[] = []
  let at = json.indexOf(needle)
  while (at !== -1) {
    const start = json.lastIndexOf(JSON_LINE_END, at) + 1
    let end = json.indexOf(JSON_LINE_END, at)
    if (end === -1) end = json.length
    let line = json.subarray(start, end).toString()
    line = line.replace(/^\[/, '').replace(/[,\]]\s*$/, '')
    out.push(JSON.parse(line) as TimelineEvent)
    at = json.indexOf(needle, end)
  }
  return out
}

const ID_OPEN = Buffer.from('{"id":"')
const QUOTE = 0x22
const DASH = 0x2d

/**
 * Numbers the sources' events in the order ClickHouse wrote them (`turn-0`, `search-1`, ...;
 * the run row's events keep their own ids) and counts every event. `{"id":"` only starts a row:
 * inside a string a quote is escaped, and ids hold no quote.
 */
function numberEvents(json: Buffer): { json: Buffer; count: number } {
  const parts: Buffer[] = []
  let from = 0
  let n = 0
  let count = 0
  for (let at = json.indexOf(ID_OPEN); at !== -1; at = json.indexOf(ID_OPEN, at + ID_OPEN.length)) {
    count++
    const end = json.indexOf(QUOTE, at + ID_OPEN.length)
    if (json[end - 1] !== DASH) continue
    parts.push(json.subarray(from, end), Buffer.from(String(n++)))
    from = end
  }
  parts.push(json.subarray(from))
  return { json: Buffer.concat(parts), count }
}

/** The timeline with its events still as ClickHouse's JSON bytes (the route sends them as they are). */
export async function runTimelineJson(
  run: RunRef,
  limit = DEFAULT_TIMELINE_LIMIT,
  signal?: AbortSignal,
): Promise<{ events: Buffer; meta: Omit<Timeline, 'events'> }> {
  const tables = await existingTables(signal)
  const auditRestored = tables.has(tableNames().audit) && (await auditLateColumns(signal)).has('restored_version')
  const { union } = sources(tables, run, await workingMemoryRunScope(run, signal), auditRestored)
  // One statement at a time on the embedded engine anyway: the run row first, its events bound
  // into the merged read.
  const runPart = await runEvents(run, signal)
  const { json: events, count: shown } = numberEvents(await eventsJson(union, runPart, limit, signal))
  // Past the limit the answer does not say how many there are: count the sources (no payloads read).
  const total = shown < limit ? shown : (await countRows(union, signal)) + runPart.events.length
  // Resume points come from the checkpoint block(s) in the events we have.
  // Under the run's own identity when it has a run row (a resume sees only that one).
  const own = runPart.identity
  const mine = (e: TimelineEvent) => !own || (e.userId === own.userId && e.sessionId === own.sessionId)
  const onCheckpoint = linesWith(events, '"blockKey":"checkpoint"').filter(
    (e) => e.blockKey === 'checkpoint' && mine(e),
  )
  const checkpoints = onCheckpoint
    .filter((e) => e.kind === 'checkpoint' || e.kind === 'checkpoint.cleared')
    .map((e) => ({
      version: e.version ?? '0',
      updatedAt: e.at,
      actor: e.actor,
      sourceTrace: e.ref,
      content: e.detail,
      isDeleted: e.kind === 'checkpoint.cleared',
      userId: e.userId,
      sessionId: e.sessionId,
    }))
  // The audit rows say which operator writes were restores (working memory cannot tell them from edits),
  // and which version each restore put back: its label, written above, names it ("<operator> restores
  // checkpoint vN as vM: ..."; user names hold no space), so two versions of the same content are told apart.
  const operatorActions: OperatorAction[] = onCheckpoint
    .filter((e) => e.kind === 'operator' && e.version !== null)
    .flatMap((e) =>
      e.ref === 'edit' || e.ref === 'clear' || e.ref === 'restore'
        ? [
            {
              version: e.version as string,
              action: e.ref,
              restoredVersion: e.ref === 'restore' ? (RESTORE_LABEL.exec(e.label)?.[1] ?? null) : null,
            },
          ]
        : [],
    )
  let resumes = await withWholeStates(run, checkpoints, { begins: runPart.begins, operatorActions }, signal)
  let attempts: AttemptNote[] = []
  if (own) {
    // The same run's checkpoints under other identities: what a resume here could not see.
    const elsewhere = await blockElsewhere(
      { org: run.org, namespace: run.namespace, runId: run.runId, blockKey: 'checkpoint' },
      own,
      signal,
    )
    resumes = markMissedCheckpoints(resumes, checkpoints, own, elsewhere)
    const segs = segments(checkpoints, resumes, {
      runStatus: runPart.status,
      completedAt: runPart.completedAt,
      identity: own,
      elsewhere,
    })
    attempts = accountAttempts(segs, resumes, {
      attempts: runPart.attempts,
      begins: runPart.begins,
      identity: own,
      elsewhere,
    })
  }
  return {
    events,
    meta: { resumes, attempts, attemptsText: describeAttempts(attempts, own), total, truncated: total > shown, limit },
  }
}

/** The timeline as one JSON document for the route: ClickHouse's event bytes with the rest around them. */
export function timelineDocument(t: { events: Buffer; meta: Omit<Timeline, 'events'> }): JsonText {
  return new JsonText('{"events":', t.events, `,${JSON.stringify(t.meta).slice(1)}`)
}

/** The timeline as values (server-rendered pages, the export). */
export async function runTimeline(
  run: RunRef,
  limit = DEFAULT_TIMELINE_LIMIT,
  signal?: AbortSignal,
): Promise<Timeline> {
  const { events, meta } = await runTimelineJson(run, limit, signal)
  return { events: JSON.parse(events.toString()) as TimelineEvent[], ...meta }
}

type CheckpointInput = Parameters<typeof detectResumePoints>[0][number] & { userId: string; sessionId: string }

const wholeStateSchema = z.object({
  user_id: z.string(),
  session_id: z.string(),
  version: versionString,
  updated_at: z.string().transform(chTimeToIso),
  content: z.string(),
})

/**
 * Resume points whose summaries and unit counts come from whole versions, not from the timeline's
 * cut payloads: two states equal in their first TIMELINE_STATE_CHARS characters would otherwise
 * read "no change". Where points may compare cut states, the versions they compare (a handful)
 * are read again in full and the points computed once more; which rows are points does not
 * depend on contents.
 */
async function withWholeStates(
  run: RunRef,
  rows: CheckpointInput[],
  opts: DetectOptions,
  signal?: AbortSignal,
): Promise<ResumePoint[]> {
  const cutContent = (c: string) => Array.from(c).length >= TIMELINE_STATE_CHARS
  const cut = (r: CheckpointInput) => !r.isDeleted && cutContent(r.content)
  // A step from or to a cut state is summarized again below from whole states: not worth a diff here.
  const points = detectResumePoints(rows, {
    ...opts,
    summarize: (from, to) => (cutContent(from) || cutContent(to) ? '' : undefined),
  })
  const wanted = new Set<string>()
  for (const p of points) for (const v of [p.fromVersion, p.firstWrite?.version]) if (v) wanted.add(v)
  const needed = rows.filter((r) => wanted.has(r.version) && cut(r))
  if (needed.length === 0) return points
  const tables = await existingTables(signal)
  const t = tableNames()
  const table = tables.has(t.history) ? t.history : t.workingMemory
  const versions = [...new Set(needed.map((r) => r.version))]
  const whole = await selectRows(
    sql`SELECT user_id, session_id, toString(version) AS version, toString(updated_at) AS updated_at, content FROM ${trusted(source(table))}
     WHERE ${runScope(run)} AND block_key = 'checkpoint' AND toString(version) IN ${param('versions', 'Array(String)', versions)}`,
    wholeStateSchema,
    { signal },
  )
  const key = (userId: string, sessionId: string, version: string) => JSON.stringify([userId, sessionId, version])
  const byRow = new Map(whole.map((w) => [`${key(w.user_id, w.session_id, w.version)}|${w.updated_at}`, w.content]))
  const byVersion = new Map(whole.map((w) => [key(w.user_id, w.session_id, w.version), w.content]))
  const full = rows.map((r) => {
    if (!needed.includes(r)) return r
    const k = key(r.userId, r.sessionId, r.version)
    const content = byRow.get(`${k}|${r.updatedAt}`) ?? byVersion.get(k)
    return content === undefined ? r : { ...r, content }
  })
  return detectResumePointsOffLoop(full, opts)
}
