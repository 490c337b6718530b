import { z } from 'zod'
import { selectRows } from '../clickhouse/query'
import { param, sql, trusted } from '../clickhouse/sql'
import { chTimeToIso } from '../tables/time'
import type { BlobFlag, Block, BlockDetail, NearMiss, VersionRow } from '../endpoints/blocks'
import type { BlockRef } from '../loom/identity'
import { versionString } from '../tables/values'
import { RUN_COLUMNS, runRowSchema, type RunRow } from '../tables/runs'
import { toBlock, WM_COLUMNS, wmRowSchema, type WmRow } from '../tables/working-memory'
import { blockScope, runScope } from '../loom/scope'
import { tableNames, source } from '../loom/tables'
import { requireRun } from './run-detail'
import { accountAttempts, describeAttempts } from '../resume/attempts'
import { findVersionTies, isNearLimit, resumeOf } from '../resume/detect'
import { detectResumePointsOffLoop } from '../server/diff-pool'
import { markMissedCheckpoints } from '../resume/elsewhere'
import { explainResume } from '../resume/explain'
import { resumeFlowMermaid } from '../resume/mermaid'
import { segments } from '../resume/segments'
import type { ElsewhereRow, OperatorAction, ResumePoint } from '../resume/types'
import { runAudit } from './audit'
import {
  blockElsewhere,
  ELSEWHERE_MAX_ROWS,
  elsewhereRowSchema,
  otherIdentitiesOfBlock,
  toElsewhereRow,
} from './checkpoint-elsewhere'
import { parsedRows } from './run-detail'
import { tableExists } from '../clickhouse/schema-presence'

/** Every physical row, read without FINAL: versions merges have not collapsed yet. */
async function physicalVersions(ref: BlockRef, signal?: AbortSignal) {
  return selectRows(
    sql`SELECT ${trusted(WM_COLUMNS)}, _part AS part FROM ${trusted(source(tableNames().workingMemory, { part: true }))}
     WHERE ${blockScope(ref)}
     ORDER BY version DESC, updated_at DESC`,
    wmRowSchema.extend({ part: z.string() }),
    { signal },
  )
}

async function historyVersions(ref: BlockRef, signal?: AbortSignal) {
  return selectRows(
    sql`SELECT ${trusted(WM_COLUMNS)} FROM ${trusted(tableNames().history)}
     WHERE ${blockScope(ref)}
     ORDER BY version DESC, updated_at DESC, captured_at DESC`,
    wmRowSchema,
    { signal },
  )
}

const nearMissSchema = z.object({
  agent: z.string(),
  user_id: z.string(),
  session_id: z.string(),
  block_key: z.string(),
  version: versionString,
  is_deleted: z.coerce.number(),
  updated_at: z.string().transform(chTimeToIso),
})

const toNearMiss = (r: z.infer<typeof nearMissSchema>): NearMiss => ({
  agent: r.agent,
  userId: r.user_id,
  sessionId: r.session_id,
  blockKey: r.block_key,
  version: r.version,
  isDeleted: r.is_deleted === 1,
  updatedAt: r.updated_at,
})

const historyRowSchema = wmRowSchema.extend({ captured_at: z.string() })
const physicalRowSchema = wmRowSchema.extend({ part: z.string() })

/** Orders rows newest version first, and texts (times as the engine writes them) latest first. */
export const byVersionDesc = (a: { version: string }, b: { version: string }) => {
  const d = BigInt(b.version) - BigInt(a.version)
  return d > 0n ? 1 : d < 0n ? -1 : 0
}
export const byTextDesc = (a: string, b: string) => (a < b ? 1 : a > b ? -1 : 0)

/**
 * What the block detail reads of working memory, its history and the run row, in one statement of
 * key lookups (one UNION ALL branch per part, each row a part's name and a row as JSONEachRow writes
 * it), where it was six: the row FINAL returns for the block; every physical row (versions merges
 * have not collapsed yet, with their part); the captured history; the run row FINAL returns; the
 * newest 50 rows FINAL returns of the same run_id and block_key under another identity (near
 * misses); and the newest versions under another identity from the history (or the unmerged rows),
 * for the resume detection. Each branch binds its table's sorting-key prefix; rows of one branch may
 * reach the client in more than one block, so each part is put back in the order it asks for.
 */
async function readBlockParts(ref: BlockRef, historyInstalled: boolean, signal?: AbortSignal) {
  const t = tableNames()
  const scope = blockScope(ref)
  const others = await otherIdentitiesOfBlock(ref, ref, signal)
  const parts = await selectRows(
    sql`SELECT 'final' AS part, formatRowNoNewline('JSONEachRow', *) AS json FROM (SELECT ${trusted(WM_COLUMNS)} FROM ${trusted(source(t.workingMemory, { final: true }))} WHERE ${scope} LIMIT 1)
     UNION ALL SELECT 'physical', formatRowNoNewline('JSONEachRow', *) FROM (SELECT ${trusted(WM_COLUMNS)}, _part AS part FROM ${trusted(source(t.workingMemory, { part: true }))} WHERE ${scope})
     ${
       historyInstalled
         ? sql`UNION ALL SELECT 'history', formatRowNoNewline('JSONEachRow', *) FROM (SELECT ${trusted(WM_COLUMNS)}, captured_at FROM ${trusted(t.history)} WHERE ${scope})`
         : trusted('')
     }
     UNION ALL SELECT 'run', formatRowNoNewline('JSONEachRow', *) FROM (SELECT ${trusted(RUN_COLUMNS)} FROM ${trusted(source(t.runs, { final: true }))} WHERE ${runScope(ref)} LIMIT 1)
     UNION ALL SELECT 'near', formatRowNoNewline('JSONEachRow', *) FROM (SELECT agent, user_id, session_id, block_key, version, is_deleted, updated_at
       FROM ${trusted(source(t.workingMemory, { final: true }))} WHERE ${others} ORDER BY updated_at DESC LIMIT 50)
     UNION ALL SELECT 'elsewhere', formatRowNoNewline('JSONEachRow', *) FROM (SELECT agent, user_id, session_id, version, is_deleted, updated_at, content
       FROM ${trusted(historyInstalled ? t.history : source(t.workingMemory))} WHERE ${others}
       ORDER BY updated_at DESC LIMIT ${trusted(String(ELSEWHERE_MAX_ROWS))})`,
    z.object({ part: z.string(), json: z.string() }),
    { signal },
  )
  const of = (part: string) => parts.filter((x) => x.part === part).map((x) => x.json)
  const newestFirst = (x: { updated_at: string }, y: { updated_at: string }) => byTextDesc(x.updated_at, y.updated_at)
  return {
    finalRow: parsedRows(of('final'), wmRowSchema)[0] ?? null,
    physical: parsedRows(of('physical'), physicalRowSchema).sort(
      (x, y) => byVersionDesc(x, y) || byTextDesc(x.updated_at, y.updated_at),
    ),
    history: historyInstalled
      ? parsedRows(of('history'), historyRowSchema).sort(
          (x, y) =>
            byVersionDesc(x, y) || byTextDesc(x.updated_at, y.updated_at) || byTextDesc(x.captured_at, y.captured_at),
        )
      : null,
    run: (parsedRows(of('run'), runRowSchema)[0] ?? null) as RunRow | null,
    misses: parsedRows(of('near'), nearMissSchema).sort(newestFirst).map(toNearMiss),
    elsewhere: parsedRows(of('elsewhere'), elsewhereRowSchema).sort(newestFirst).map(toElsewhereRow),
  }
}

/** The blob_key a JSON checkpoint points at, if any. */
export function blobKeyOf(content: string): string | null {
  const t = content.trim()
  if (!t.startsWith('{')) return null
  try {
    const v = JSON.parse(t) as Record<string, unknown>
    return typeof v.blob_key === 'string' && v.blob_key !== '' ? v.blob_key : null
  } catch {
    return null
  }
}

async function blobFlag(ref: BlockRef, content: string, signal?: AbortSignal): Promise<BlobFlag | null> {
  const blobKey = blobKeyOf(content)
  if (!blobKey) return null
  const [row] = await selectRows(
    sql`SELECT toString(max(expires_at)) AS expires_at, count() AS n FROM ${trusted(source(tableNames().contextBlobs))}
     WHERE org = ${param('org', 'String', ref.org)} AND namespace = ${param('namespace', 'String', ref.namespace)}
       AND agent = ${param('agent', 'String', ref.agent)} AND blob_key = ${param('blob_key', 'String', blobKey)}`,
    z.object({ expires_at: z.string(), n: z.coerce.number() }),
    { signal },
  )
  if (!row || row.n === 0) return { blobKey, state: 'missing', expiresAt: null }
  const expiresAt = chTimeToIso(row.expires_at)
  return { blobKey, state: Date.parse(expiresAt) <= Date.now() ? 'expired' : 'live', expiresAt }
}

/** What the audit log says each operator write to this block was (a restore looks like an edit in working memory). */
async function operatorActions(ref: BlockRef, signal?: AbortSignal): Promise<OperatorAction[]> {
  const { entries } = await runAudit(ref, signal)
  return entries
    .filter((e) => e.blockKey === ref.blockKey && e.userId === ref.userId && e.sessionId === ref.sessionId)
    .filter(
      (e): e is typeof e & { action: OperatorAction['action'] } =>
        e.action === 'edit' || e.action === 'clear' || e.action === 'restore',
    )
    .map((e) => ({ version: e.afterVersion, action: e.action, restoredVersion: e.restoredVersion }))
}

/** The most complete account of a block's versions: the history when installed (and not shorter), else the physical rows. */
function accountOf<V extends Block>(
  physical: V[],
  history: Block[] | null,
): { source: 'history' | 'physical'; basis: Block[] } {
  return history && history.length >= physical.length
    ? { source: 'history', basis: history }
    : { source: 'physical', basis: physical }
}

/** The begins a run row records, for the resume detection of a block under the run row's own identity. */
export type RunBegins = { attempts: number; startedAt: string; lastBeginAt: string }

/**
 * What a block's resume story is read from: its physical rows, its captured history (null when
 * the capture is not installed), its versions under other identities and the operator's writes.
 */
export type StoryReads = {
  physical: WmRow[]
  history: WmRow[] | null
  elsewhere: ElsewhereRow[]
  actions: OperatorAction[]
}

/** A block's resume story, as the block detail tells it. */
export type ResumeStory = {
  /** Captured history and physical rows together (a version may be in both). */ versions: Block[]
  points: ResumePoint[]
}

/**
 * A block's versions (the same account as the block detail's) and its resume points, in the four
 * reads they need (no FINAL row, run row, near misses or blob): what comparing two runs shows of
 * their checkpoints. `begins`: the run row's, when the block is under its identity.
 */
export async function blockResumeStory(
  ref: BlockRef,
  begins: RunBegins | null,
  signal?: AbortSignal,
): Promise<ResumeStory> {
  const historyInstalled = await tableExists(tableNames().history, signal)
  const own = { agent: ref.agent, userId: ref.userId, sessionId: ref.sessionId }
  const [physical, history, elsewhere, actions] = await Promise.all([
    physicalVersions(ref, signal),
    historyInstalled ? historyVersions(ref, signal) : Promise.resolve(null),
    blockElsewhere(ref, own, signal),
    operatorActions(ref, signal),
  ])
  return resumeStoryFrom(ref, begins, { physical, history, elsewhere, actions })
}

/** blockResumeStory from reads already made (a comparison reads both its runs' in one statement). */
export async function resumeStoryFrom(
  ref: BlockRef,
  begins: RunBegins | null,
  reads: StoryReads,
): Promise<ResumeStory> {
  const own = { agent: ref.agent, userId: ref.userId, sessionId: ref.sessionId }
  const physicalBlocks = reads.physical.map(toBlock)
  const historyBlocks = reads.history ? reads.history.map(toBlock) : null
  const { basis } = accountOf(physicalBlocks, historyBlocks)
  const points = markMissedCheckpoints(
    await detectResumePointsOffLoop(basis, { begins, operatorActions: reads.actions }),
    basis,
    own,
    reads.elsewhere,
  )
  return { versions: [...(historyBlocks ?? []), ...physicalBlocks], points }
}

/**
 * Everything about one block: FINAL row, physical versions, captured history, what a resume
 * returns now and why, and the flags an operator should see. A run that exists but has no
 * such block under this identity answers with block null (and its near misses), not 404.
 */
export async function getBlockDetail(ref: BlockRef, signal?: AbortSignal): Promise<BlockDetail> {
  const historyInstalled = await tableExists(tableNames().history, signal)
  const own = { agent: ref.agent, userId: ref.userId, sessionId: ref.sessionId }
  const [{ finalRow, physical, history, run, misses, elsewhere }, actions] = await Promise.all([
    readBlockParts(ref, historyInstalled, signal),
    operatorActions(ref, signal),
  ])
  // No such block and no run row: the run exists only if it wrote something else.
  if (!finalRow && !run) await requireRun(ref, signal)
  let finalMarked = false
  const versions: VersionRow[] = physical.map((r) => {
    const isFinal =
      !finalMarked &&
      !!finalRow &&
      r.version === finalRow.version &&
      r.updated_at === finalRow.updated_at &&
      r.actor === finalRow.actor &&
      r.source_trace === finalRow.source_trace &&
      r.content === finalRow.content
    if (isFinal) finalMarked = true
    return { ...toBlock(r), part: r.part, isFinal }
  })
  const historyBlocks = history ? history.map(toBlock) : null
  const { source, basis } = accountOf(versions, historyBlocks)
  // run.begin calls belong to the run row's identity: a block under another user/session never saw them.
  const ownIdentity = !!run && run.user_id === ref.userId && run.session_id === ref.sessionId
  const begins =
    run && ownIdentity ? { attempts: run.attempt, startedAt: run.started_at, lastBeginAt: run.last_begin_at } : null
  const points = markMissedCheckpoints(
    await detectResumePointsOffLoop(basis, { begins, operatorActions: actions }),
    basis,
    own,
    elsewhere,
  )
  const segs = segments(basis, points, {
    runStatus: run?.status ?? null,
    completedAt: run?.completed_at ?? null,
    now: Date.now(),
    identity: own,
    elsewhere,
  })
  const attempts =
    run && ownIdentity
      ? accountAttempts(segs, points, {
          attempts: run.attempt,
          startedAt: run.started_at,
          begins: [{ attempt: run.attempt, at: run.last_begin_at }],
          identity: own,
          elsewhere,
        })
      : []
  const block = finalRow ? toBlock(finalRow) : null
  const ties = [...new Set([...findVersionTies(versions), ...(historyBlocks ? findVersionTies(historyBlocks) : [])])]
  return {
    block,
    versions,
    history: historyBlocks,
    historyInstalled,
    resume: {
      ...resumeOf(block),
      points,
      explanation: explainResume(points, own),
      attempts,
      attemptsText: describeAttempts(attempts, own),
      segments: segs,
      mermaid: resumeFlowMermaid(segs, points, { identity: own, attempts }),
      source,
    },
    flags: {
      ties,
      nearMisses: misses,
      nearLimit: !!block && !block.isDeleted && isNearLimit(block.content, block.charLimit),
      blob: block && !block.isDeleted ? await blobFlag(ref, block.content, signal) : null,
    },
  }
}
