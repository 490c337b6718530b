/**
 * What comparing two runs reads of them, in two statements for both runs: their headers, then their
 * checkpoints' resume stories (which need the identity the header names). Each part is a UNION ALL
 * branch (as in the run header's statement: each row a part's name and a row as JSONEachRow writes
 * it) that reads both runs at once, `IN` over their keys under each table's sorting-key prefix. On
 * this engine a statement's cost is mostly planning its branches, not the keys each branch looks
 * up: at 1M runs both runs' header parts cost about what the run page's header costs for one
 * (48-55 against 49-56 ms), and both stories 16-17 ms against four statements of 3-10 ms a side.
 */
import { TupleParam } from '@clickhouse/client'
import { z } from 'zod'
import { selectRows } from '../clickhouse/query'
import { param, sql, trusted, type Sql } from '../clickhouse/sql'
import { tableExists } from '../clickhouse/schema-presence'
import { rowRunKey, runKeyText, type BlockRef, type RunRef } from '../loom/identity'
import { source, tableNames } from '../loom/tables'
import { inRunKeys } from '../run-set/conditions'
import { FLAG_QUERY_SETTINGS, keptRunFlags, runFlagsFrom, runFlagsQueries } from '../run-set/run-flags'
import { runIndexReady } from '../run-set/run-index'
import { toBlock, WM_COLUMNS, wmRowSchema, type WmRow } from '../tables/working-memory'
import type { RunFlag } from '../triage/flags'
import { byTextDesc, byVersionDesc, type StoryReads } from './block-detail'
import { ELSEWHERE_MAX_ROWS, elsewhereRowSchema as elsewhereRow, toElsewhereRow } from './checkpoint-elsewhere'
import { headerRowSchema, parsedRows, SPAN_COLUMNS, spanSchema, type HeaderParts, type RunSpan } from './run-detail'
import { runsIdentitiesScope, workingMemoryRunsScope } from './wm-run-scope'

/** The run row's columns a comparison reads: what its header shows. */
const HEADER_RUN_COLUMNS = Object.keys(headerRowSchema.shape).join(', ')

const runKeyColumns = { org: z.string(), namespace: z.string(), agent: z.string(), run_id: z.string() }
const runKeySchema = z.object(runKeyColumns)
const countSchema = z.object({ ...runKeyColumns, n: z.coerce.number() })
const spanRowSchema = spanSchema.extend(runKeyColumns)
const historyRowSchema = wmRowSchema.extend({ captured_at: z.string() })
/** A version of a block under another identity, with the block it belongs to (both sides' rows come back together). */
const elsewhereRowSchema = elsewhereRow.extend({
  org: z.string(),
  namespace: z.string(),
  run_id: z.string(),
  block_key: z.string(),
})
const nearRowSchema = z.object({ org: z.string(), namespace: z.string(), run_id: z.string() })

const EMPTY_SPAN: RunSpan = { blocks: 0, versions: 0, oldest_at: null, newest_user_id: '', newest_session_id: '' }

/** Items by key, each list in the items' order. */
function groupBy<T>(items: readonly T[], keyOf: (item: T) => string): Map<string, T[]> {
  const out = new Map<string, T[]>()
  for (const item of items) {
    const key = keyOf(item)
    const list = out.get(key)
    if (list) list.push(item)
    else out.set(key, [item])
  }
  return out
}

/** (org, namespace, run_id): what a namespace-wide read of one run's block (any agent) is keyed by. */
const runIdText = (r: { org: string; namespace: string; run_id: string }) =>
  JSON.stringify([r.org, r.namespace, r.run_id])

/** Each distinct row once, as a tuple parameter. */
const tuples = (rows: readonly (readonly string[])[]) => [
  ...new Map(rows.map((r) => [JSON.stringify(r), new TupleParam([...r])])).values(),
]

/** Each run's count of rows (or of distinct `what`) in a run-scoped table, one part row per run that has any. */
const countPart = (part: string, table: string, what: string, keys: Sql) =>
  sql`SELECT ${trusted(`'${part}'`)}, formatRowNoNewline('JSONEachRow', *) FROM (SELECT org, namespace, agent, run_id, ${trusted(what)} AS n
       FROM ${trusted(source(table))} WHERE ${keys} GROUP BY org, namespace, agent, run_id)`

/**
 * The runs' header parts, keyed by runKeyText; a run in neither `loom.runs` nor working memory has
 * empty parts (headerFrom throws its 404).
 */
export async function readHeaders(runs: readonly RunRef[], signal?: AbortSignal): Promise<Map<string, HeaderParts>> {
  const t = tableNames()
  const unique = [...new Map(runs.map((r) => [runKeyText(r), r])).values()]
  const keys = inRunKeys(
    'cmp_keys',
    unique.map((r) => ({ org: r.org, namespace: r.namespace, agent: r.agent, run_id: r.runId })),
  )
  const [wmScope, indexed] = await Promise.all([workingMemoryRunsScope(keys, signal), runIndexReady(signal)])
  const flagKey = (r: RunRef) => ({ org: r.org, namespace: r.namespace, agent: r.agent, run_id: r.runId })
  // Flags a list kept a moment ago are used as they are; the statement carries what decides the others'.
  const kept = new Map(unique.map((r) => [runKeyText(r), indexed ? keptRunFlags(flagKey(r)) : []]))
  const unkept = unique.filter((r) => kept.get(runKeyText(r)) === undefined)
  const fq = unkept.length ? await runFlagsQueries(unkept.map(flagKey)) : null
  const parts = await selectRows(
    sql`SELECT 'run' AS part, formatRowNoNewline('JSONEachRow', *) AS json FROM (SELECT ${trusted(HEADER_RUN_COLUMNS)} FROM ${trusted(source(t.runs, { final: true }))} WHERE ${keys})
     UNION ALL SELECT 'checkpoint', formatRowNoNewline('JSONEachRow', *) FROM (SELECT ${trusted(WM_COLUMNS)} FROM ${trusted(source(t.workingMemory, { final: true }))} WHERE ${wmScope} AND block_key = 'checkpoint')
     UNION ALL SELECT 'span', formatRowNoNewline('JSONEachRow', *) FROM (SELECT org, namespace, agent, run_id, ${trusted(SPAN_COLUMNS)}
       FROM ${trusted(source(t.workingMemory))} WHERE ${wmScope} GROUP BY org, namespace, agent, run_id)
     UNION ALL ${countPart('turns', t.turns, 'count()', keys)}
     UNION ALL ${countPart('memories', t.memory, 'uniqExact(memory_key)', keys)}
     UNION ALL ${countPart('searches', t.searchTrace, 'count()', keys)}
     UNION ALL ${countPart('blobs', t.contextBlobs, 'count()', keys)}
     ${
       fq
         ? sql`UNION ALL SELECT 'flags', formatRowNoNewline('JSONEachRow', *) FROM (${fq.rows})
     UNION ALL SELECT 'near', formatRowNoNewline('JSONEachRow', org, namespace, run_id) FROM (${fq.candidates})`
         : trusted('')
     }`,
    z.object({ part: z.string(), json: z.string() }),
    { signal, settings: FLAG_QUERY_SETTINGS },
  )
  const of = (part: string) => parts.filter((x) => x.part === part).map((x) => x.json)
  const byRun = <R extends z.infer<typeof runKeySchema>>(rows: R[]) => groupBy(rows, rowRunKey)
  const rows = byRun(parsedRows(of('run'), headerRowSchema))
  const checkpoints = byRun(parsedRows(of('checkpoint'), wmRowSchema))
  const spans = byRun(parsedRows(of('span'), spanRowSchema))
  const counts = Object.fromEntries(
    ['turns', 'memories', 'searches', 'blobs'].map((part) => [part, byRun(parsedRows(of(part), countSchema))]),
  )
  const flagRows = groupBy(of('flags'), (json) => rowRunKey(runKeySchema.parse(JSON.parse(json))))
  const near = parsedRows(of('near'), nearRowSchema).map(runIdText)
  const out = new Map<string, HeaderParts>()
  for (const run of unique) {
    const key = runKeyText(run)
    const count = (part: string) => counts[part].get(key)?.[0]?.n ?? 0
    const keptFlags = kept.get(key)
    const id = runIdText({ org: run.org, namespace: run.namespace, run_id: run.runId })
    const flagRead = { rows: flagRows.get(key) ?? [], nearMissCandidates: near.filter((n) => n === id).length }
    out.set(key, {
      row: rows.get(key)?.[0] ?? null,
      checkpoints: (checkpoints.get(key) ?? []).map(toBlock),
      span: spans.get(key)?.[0] ?? EMPTY_SPAN,
      counts: {
        turns: count('turns'),
        memories: count('memories'),
        searches: count('searches'),
        blobs: count('blobs'),
      },
      flags: keptFlags ? async (): Promise<RunFlag[]> => keptFlags : () => runFlagsFrom(flagKey(run), flagRead, signal),
    })
  }
  return out
}

/** A block's key as one comparable string. */
export const blockKeyText = (b: BlockRef): string =>
  JSON.stringify([b.org, b.namespace, b.agent, b.userId, b.sessionId, b.runId, b.blockKey])

/**
 * What blockResumeStory reads for each of the blocks, in one statement, keyed by blockKeyText: each
 * block's physical rows and captured history (the whole sorting key bound, as blockScope does), and
 * the block of the same (org, namespace, run_id) under every identity the run wrote under (as
 * blockElsewhere reads it; each block then leaves out its own).
 */
export async function readStories(blocks: readonly BlockRef[], signal?: AbortSignal): Promise<Map<string, StoryReads>> {
  const t = tableNames()
  const unique = [...new Map(blocks.map((b) => [blockKeyText(b), b])).values()]
  const out = new Map<string, StoryReads>()
  if (unique.length === 0) return out
  const keys = sql`(org, namespace, agent, user_id, session_id, run_id, block_key) IN ${param(
    'story_blocks',
    'Array(Tuple(String, String, String, String, String, String, String))',
    tuples(unique.map((b) => [b.org, b.namespace, b.agent, b.userId, b.sessionId, b.runId, b.blockKey])),
  )}`
  const ids = tuples(unique.map((b) => [b.org, b.namespace, b.runId]))
  const runIds = sql`(org, namespace, run_id) IN ${param('story_ids', 'Array(Tuple(String, String, String))', ids)}`
  const [historyInstalled, identities] = await Promise.all([
    tableExists(t.history, signal),
    runsIdentitiesScope(runIds, signal),
  ])
  const blockKeys = sql`(org, namespace, run_id, block_key) IN ${param(
    'story_block_keys',
    'Array(Tuple(String, String, String, String))',
    tuples(unique.map((b) => [b.org, b.namespace, b.runId, b.blockKey])),
  )}`
  const parts = await selectRows(
    sql`SELECT 'physical' AS part, formatRowNoNewline('JSONEachRow', *) AS json FROM (SELECT ${trusted(WM_COLUMNS)} FROM ${trusted(source(t.workingMemory))} WHERE ${keys})
     ${
       historyInstalled
         ? sql`UNION ALL SELECT 'history', formatRowNoNewline('JSONEachRow', *) FROM (SELECT ${trusted(WM_COLUMNS)}, captured_at FROM ${trusted(t.history)} WHERE ${keys})`
         : trusted('')
     }
     UNION ALL SELECT 'elsewhere', formatRowNoNewline('JSONEachRow', *) FROM (SELECT * FROM (
         SELECT org, namespace, run_id, block_key, agent, user_id, session_id, version, is_deleted, updated_at, content
         FROM ${trusted(historyInstalled ? t.history : source(t.workingMemory))} WHERE ${blockKeys} AND ${identities}
         ORDER BY updated_at DESC LIMIT ${trusted(String(ELSEWHERE_MAX_ROWS))} BY org, namespace, run_id, block_key, agent, user_id, session_id)
       ORDER BY updated_at DESC LIMIT ${trusted(String(2 * ELSEWHERE_MAX_ROWS))} BY org, namespace, run_id, block_key)`,
    z.object({ part: z.string(), json: z.string() }),
    { signal },
  )
  const of = (part: string) => parts.filter((x) => x.part === part).map((x) => x.json)
  const wmKey = (r: WmRow) =>
    blockKeyText({ ...r, userId: r.user_id, sessionId: r.session_id, runId: r.run_id, blockKey: r.block_key })
  const physical = groupBy(parsedRows(of('physical'), wmRowSchema), wmKey)
  const history = groupBy(parsedRows(of('history'), historyRowSchema), wmKey)
  const elsewhere = groupBy(parsedRows(of('elsewhere'), elsewhereRowSchema), (r) =>
    JSON.stringify([r.org, r.namespace, r.run_id, r.block_key]),
  )
  for (const block of unique) {
    const key = blockKeyText(block)
    const own = (r: { agent: string; user_id: string; session_id: string }) =>
      r.agent === block.agent && r.user_id === block.userId && r.session_id === block.sessionId
    out.set(key, {
      // The orders blockResumeStory's reads ask the engine for, restored here: rows of one branch
      // may reach the client in more than one block, interleaved with other branches'.
      physical: (physical.get(key) ?? []).sort((x, y) => byVersionDesc(x, y) || byTextDesc(x.updated_at, y.updated_at)),
      history: historyInstalled
        ? (history.get(key) ?? []).sort(
            (x, y) =>
              byVersionDesc(x, y) || byTextDesc(x.updated_at, y.updated_at) || byTextDesc(x.captured_at, y.captured_at),
          )
        : null,
      // Each identity's newest rows, then the newest of all: with at most ELSEWHERE_MAX_ROWS of its own
      // among them, the block keeps exactly the newest ELSEWHERE_MAX_ROWS of the others'.
      elsewhere: (elsewhere.get(JSON.stringify([block.org, block.namespace, block.runId, block.blockKey])) ?? [])
        .filter((r) => !own(r))
        .sort((x, y) => byTextDesc(x.updated_at, y.updated_at))
        .slice(0, ELSEWHERE_MAX_ROWS)
        .map(toElsewhereRow),
      // The audit's operator actions only tell an operator's restore from an edit: operator points,
      // which a comparison does not show (its resumes are the process resumes), so it does not read them.
      actions: [],
    })
  }
  return out
}
