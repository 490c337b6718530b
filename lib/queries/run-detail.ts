import { z } from 'zod'
import { selectRows } from '../clickhouse/query'
import { sql, trusted } from '../clickhouse/sql'
import { nullableChTimeToIso } from '../tables/time'
import { notFound } from '../errors'
import type { Block } from '../endpoints/blocks'
import type { RunDetail, RunSummary } from '../endpoints/runs'
import type { RunRef } from '../loom/identity'
import { runScope } from '../loom/scope'
import { tableNames, source } from '../loom/tables'
import { runRowSchema } from '../tables/runs'
import { toBlock, WM_COLUMNS, wmRowSchema } from '../tables/working-memory'
import type { RunFlag } from '../triage/flags'
import { FLAG_QUERY_SETTINGS, keptRunFlags, runFlagsFrom, runFlagsQueries } from '../run-set/run-flags'
import { runRowSummary } from './runs'
import { runIndexReady } from '../run-set/run-index'
import { workingMemoryRunScope } from './wm-run-scope'

/**
 * A run's working memory at a glance, in one pass without content: its blocks, versions, first
 * write and the identity of the newest write. Aggregates over no rows read as none.
 */
export const SPAN_COLUMNS = `uniqExact(user_id, session_id, block_key) AS blocks, count() AS versions,
         if(count() = 0, NULL, toString(min(updated_at))) AS oldest_at,
         argMax(user_id, (updated_at, version)) AS newest_user_id,
         argMax(session_id, (updated_at, version)) AS newest_session_id`

export const spanSchema = z.object({
  blocks: z.coerce.number(),
  versions: z.coerce.number(),
  oldest_at: z.string().nullable(),
  newest_user_id: z.string(),
  newest_session_id: z.string(),
})
export type RunSpan = z.infer<typeof spanSchema>

export const parsedRows = <S extends z.ZodType>(rows: string[], schema: S): z.infer<S>[] =>
  rows.map((json) => schema.parse(JSON.parse(json)))

/**
 * The run row's columns a header shows: not the request, answer or metadata (no header shows them),
 * nor the memories and keys the run used (the run page's header adds those).
 */
export const headerRowSchema = runRowSchema.pick({
  org: true,
  namespace: true,
  agent: true,
  user_id: true,
  session_id: true,
  run_id: true,
  goal: true,
  model: true,
  status: true,
  outcome: true,
  reflection: true,
  attempt: true,
  turns: true,
  input_tokens: true,
  output_tokens: true,
  cost_usd: true,
  started_at: true,
  last_begin_at: true,
  completed_at: true,
  duration_ms: true,
})
export type HeaderRunRow = z.infer<typeof headerRowSchema>

/** The run page's header adds the memories and keys the run used. */
const pageRowSchema = headerRowSchema.extend({
  memories_used: runRowSchema.shape.memories_used,
  recalled_keys: runRowSchema.shape.recalled_keys,
})
const PAGE_RUN_COLUMNS = Object.keys(pageRowSchema.shape).join(', ')

/**
 * Everything the run header shows, in one statement of key lookups, one UNION ALL branch per part
 * (each row: the part's name and a row as JSONEachRow writes it, or a count): the run row FINAL
 * returns (its highest version), the latest version of each of its checkpoint blocks (one per
 * user_id, session_id), its working memory at a glance (blocks, versions, first write and the
 * identity of the newest write, in one pass without content), the counts of its other tables and,
 * with the run index, the rows its flags are decided from. Each branch binds its table's
 * sorting-key prefix. One statement of branches costs the engine about two thirds of the six
 * statements it replaces (and of the same reads as scalar subqueries of one row).
 */
async function runHeader(run: RunRef, signal?: AbortSignal) {
  const t = tableNames()
  const scope = runScope(run)
  const [wmScope, indexed] = await Promise.all([workingMemoryRunScope(run, signal), runIndexReady(signal)])
  const flagKey = { org: run.org, namespace: run.namespace, agent: run.agent, run_id: run.runId }
  // Flags a list kept a moment ago are used as they are; otherwise the statement carries what decides them.
  const kept = indexed ? keptRunFlags(flagKey) : []
  const fq = kept ? null : await runFlagsQueries([flagKey])
  const parts = await selectRows(
    sql`SELECT 'run' AS part, formatRowNoNewline('JSONEachRow', *) AS json FROM (SELECT ${trusted(PAGE_RUN_COLUMNS)} FROM ${trusted(source(t.runs, { final: true }))} WHERE ${scope} LIMIT 1)
     UNION ALL SELECT 'checkpoint', formatRowNoNewline('JSONEachRow', *) FROM (SELECT ${trusted(WM_COLUMNS)} FROM ${trusted(source(t.workingMemory, { final: true }))} WHERE ${wmScope} AND block_key = 'checkpoint')
     UNION ALL SELECT 'span', formatRowNoNewline('JSONEachRow', *) FROM (SELECT ${trusted(SPAN_COLUMNS)}
       FROM ${trusted(source(t.workingMemory))} WHERE ${wmScope})
     UNION ALL SELECT 'turns', toString(count()) FROM ${trusted(source(t.turns))} WHERE ${scope}
     UNION ALL SELECT 'memories', toString(uniqExact(memory_key)) FROM ${trusted(source(t.memory))} WHERE ${scope}
     UNION ALL SELECT 'searches', toString(count()) FROM ${trusted(source(t.searchTrace))} WHERE ${scope}
     UNION ALL SELECT 'blobs', toString(count()) FROM ${trusted(source(t.contextBlobs))} WHERE ${scope}
     ${
       fq
         ? sql`UNION ALL SELECT 'flags', formatRowNoNewline('JSONEachRow', *) FROM (${fq.rows})
     UNION ALL SELECT 'near', toString(count()) FROM (${fq.candidates})`
         : trusted('')
     }`,
    z.object({ part: z.string(), json: z.string() }),
    { signal, settings: FLAG_QUERY_SETTINGS },
  )
  const of = (part: string) => parts.filter((x) => x.part === part).map((x) => x.json)
  const num = (part: string) => Number(of(part)[0] ?? 0)
  const flagRows = { rows: of('flags'), nearMissCandidates: num('near') }
  return {
    row: parsedRows(of('run'), pageRowSchema)[0] ?? null,
    checkpoints: parsedRows(of('checkpoint'), wmRowSchema).map(toBlock),
    span: parsedRows(of('span'), spanSchema)[0],
    counts: { turns: num('turns'), memories: num('memories'), searches: num('searches'), blobs: num('blobs') },
    flags: kept ? async (): Promise<RunFlag[]> => kept : () => runFlagsFrom(flagKey, flagRows, signal),
  } satisfies HeaderParts & { row: z.infer<typeof pageRowSchema> | null }
}

/**
 * What a run's header is made of, as one statement reads it (the run page's, or a comparison's
 * for both its runs): the run row FINAL returns (null without one), the latest version of each of
 * its checkpoint blocks, its working memory at a glance, the counts of its other tables and its flags.
 */
export type HeaderParts = {
  row: HeaderRunRow | null
  checkpoints: Block[]
  span: RunSpan
  counts: { turns: number; memories: number; searches: number; blobs: number }
  flags: () => Promise<RunFlag[]>
}

/** The header a run's parts make: everything of RunDetail but the lists only the run page shows. */
export type RunHeader = Omit<RunDetail, 'memoriesUsed' | 'recalledKeys'>

/**
 * Throws the run's 404 unless it exists: a row in `loom.runs` or any working-memory write, the
 * same test as getRunDetail's. A run-scoped tab that found nothing asks this, one statement of
 * two key lookups, instead of reading the whole header to tell "unknown run" from "none here".
 */
export async function requireRun(run: RunRef, signal?: AbortSignal): Promise<void> {
  const t = tableNames()
  const rows = await selectRows(
    sql`SELECT 1 AS found FROM (
       SELECT 1 FROM ${trusted(source(t.runs))} WHERE ${runScope(run)} LIMIT 1
       UNION ALL
       SELECT 1 FROM ${trusted(source(t.workingMemory))} WHERE ${await workingMemoryRunScope(run, signal)} LIMIT 1
     ) LIMIT 1`,
    z.object({ found: z.coerce.number() }),
    { signal },
  )
  if (rows.length === 0) throw runNotFound(run)
}

const runNotFound = (run: RunRef) => notFound(`No run ${run.runId} under ${run.org}/${run.namespace}/${run.agent}`)

export async function getRunDetail(run: RunRef, signal?: AbortSignal): Promise<RunDetail> {
  return (await runDetailAndCheckpoint(run, signal)).detail
}

/**
 * The run's header, with the content of the checkpoint it names (the latest version of the run's
 * own checkpoint block, as FINAL reads it; null without one), read in the same statements.
 */
export async function runDetailAndCheckpoint(
  run: RunRef,
  signal?: AbortSignal,
): Promise<{ detail: RunDetail; checkpoint: Block | null }> {
  const parts = await runHeader(run, signal)
  const { header, checkpoint } = await headerFrom(run, parts)
  const detail: RunDetail = {
    run: header.run,
    memoriesUsed: parts.row?.memories_used ?? [],
    recalledKeys: parts.row?.recalled_keys ?? [],
    inputTokens: header.inputTokens,
    outputTokens: header.outputTokens,
    model: header.model,
    counts: header.counts,
  }
  return { detail, checkpoint }
}

/**
 * A run's header from its parts, with the checkpoint it names (its own checkpoint block's latest
 * version, else the newest of its others). Throws the run's 404 when it has neither a run row nor
 * any working-memory write.
 */
export async function headerFrom(
  run: RunRef,
  parts: HeaderParts,
): Promise<{ header: RunHeader; checkpoint: Block | null }> {
  const { row, checkpoints, span, counts: otherCounts, flags: flagsOf } = parts
  const counts = { ...otherCounts, blocks: span.blocks, versions: span.versions }
  if (!row && span.versions === 0) throw runNotFound(run)
  const own = row ? checkpoints.find((c) => c.userId === row.user_id && c.sessionId === row.session_id) : undefined
  const newest = [...checkpoints].sort((a, b) => b.updatedAt.localeCompare(a.updatedAt))[0]
  const cp = own ?? newest
  const checkpoint = cp
    ? {
        version: cp.version,
        updatedAt: cp.updatedAt,
        chars: cp.chars,
        charLimit: cp.charLimit,
        isDeleted: cp.isDeleted,
        userId: cp.userId,
        sessionId: cp.sessionId,
      }
    : null
  const summary: RunSummary = row
    ? runRowSummary(row, { startedAt: row.started_at, completedAt: row.completed_at }, checkpoint, [])
    : {
        ...run,
        userId: span.newest_user_id,
        sessionId: span.newest_session_id,
        goal: '',
        status: 'unknown',
        attempt: 0,
        // As in the runs list: a checkpoint-only run started at its first working-memory write.
        startedAt: nullableChTimeToIso(span.oldest_at) ?? '',
        completedAt: null,
        durationMs: null,
        turns: 0,
        costUsd: 0,
        checkpoint,
        flags: [],
      }
  summary.flags = await flagsOf()
  const header: RunHeader = {
    run: {
      ...summary,
      reflection: row?.reflection ?? '',
      outcome: row?.outcome ?? '',
      lastBeginAt: row?.last_begin_at ?? null,
      hasRunRow: !!row,
    },
    inputTokens: row?.input_tokens ?? 0,
    outputTokens: row?.output_tokens ?? 0,
    model: row?.model ?? '',
    counts,
  }
  return { header, checkpoint: cp ?? null }
}
