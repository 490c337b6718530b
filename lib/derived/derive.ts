/**
 * Derivation: keeps the console's derived tables (names.ts) current off the agents' write path.
 *
 * A batch reads two watermarks, the highest block number of the history capture's parts and of
 * `loom.runs`' parts (block numbers only grow), and records the runs whose rows sit in parts past
 * the previous batch's watermarks as its dirty set. It then recomputes those runs whole from the
 * captured history and Loom's tables (statements.ts), so a batch that runs twice writes the same
 * rows again. The analytics sums are the one running total: the batch stages each run's previous
 * and next state first, adds their difference under a deduplication token, then stores the next
 * state. Each step is logged (`run_index_derive_log`): a batch that fails is resumed from its last step by
 * the next call, with the same dirty set and the same staged states, so it never loses or doubles
 * a row.
 *
 * Batches run one at a time per process: on a timer in the server (`startDeriving`), at once
 * before a read of derived data when this process wrote since the last batch (an operator's edit,
 * a batch reset, or any insert made through this process), before a read when the timer has fallen
 * behind, and by an explicit `deriveNow()` (tests, scripts).
 */
import 'server-only'
import { AsyncLocalStorage } from 'node:async_hooks'
import { z } from 'zod'
import { getClient } from '../clickhouse/client'
import { classifyClickHouseError, onQueryEvent, runCommandWith, selectRows } from '../clickhouse/query'
import { param, sql, trusted, type Sql } from '../clickhouse/sql'
import { getConfig } from '../config'
import { tableNames } from '../loom/tables'
import { existingTables } from '../clickhouse/schema-presence'
import { deriveNames, runIndexNames, runRollupNames } from './names'
import {
  dirtyInsert,
  deriveStatements,
  rollupStage,
  rollupStateInsert,
  rollupSumsInsert,
  rollupTopInsert,
  rowsInsert,
  sessionsInsert,
  type DeriveContext,
  type DeriveScope,
} from './statements'

/** Steps of a batch, as logged. */
export const STEP = { planning: 0, planned: 1, staged: 2, done: 3 } as const

/** Derived data older than this is called out on the pages that show it. */
export const FRESHNESS_LIMIT_MS = 5_000

export type DeriveStatus = {
  /** Everything written before this moment is derived (null: no batch has completed yet). */
  coveredAt: Date | null
  /** When the last batch (with or without work) ended. */
  lastRunAt: Date | null
  /** The last batch's failure, cleared by the next success. */
  error: string | null
  /** Batches that found work, since start. */
  batches: number
  /** Runs recomputed by the last batch that found work. */
  lastRuns: number
  lastElapsedMs: number
}

export type BatchReport = {
  seq: number | null
  runs: number
  elapsedMs: number
  resumed: boolean
  derivedTo?: { table: string; block: number }
}

type Holder = {
  status: DeriveStatus
  /** This process wrote since the last batch began (its rows are not derived yet). */
  pendingLocal: boolean
  current: Promise<BatchReport> | null
  /** The running batch began after this process wrote: reads wait for it. */
  currentCoversLocal: boolean
  queued: Promise<BatchReport> | null
  /** A batch for route writes, waiting out the spacing after the last one (shared by every write that ends meanwhile). */
  spaced: Promise<BatchReport> | null
  /** The working-memory source and the block number up to which its rows are derived (null: not known yet). */
  derivedTo: { table: string; block: number } | null
  timer: NodeJS.Timeout | null
  unsubscribe: (() => void) | null
}

const g = globalThis as typeof globalThis & { __loomRunsDerive?: Holder }
const inDerive = new AsyncLocalStorage<true>()
/** Writes made inside a request that derives them itself before it answers (see `deriveAfterWrites`). */
type WriteScope = { wrote: boolean; open: boolean; agent: boolean }
const writeScope = new AsyncLocalStorage<WriteScope>()

function holder(): Holder {
  if (!g.__loomRunsDerive) {
    const h: Holder = {
      status: { coveredAt: null, lastRunAt: null, error: null, batches: 0, lastRuns: 0, lastElapsedMs: 0 },
      // A process that has not derived yet does not know what was written before it started.
      pendingLocal: true,
      current: null,
      currentCoversLocal: false,
      queued: null,
      spaced: null,
      derivedTo: null,
      timer: null,
      unsubscribe: null,
    }
    // Any change made through this process (but a batch's own) may need deriving before the next read.
    h.unsubscribe = onQueryEvent((e) => {
      if (e.kind !== 'write' || e.phase !== 'end' || inDerive.getStore()) return
      const scope = writeScope.getStore()
      // A write of a request that derives before answering is its own business; one that ends after
      // the request answered (work it left running) falls back to the next read.
      if (scope?.agent) return
      if (scope?.open) scope.wrote = true
      else h.pendingLocal = true
    })
    g.__loomRunsDerive = h
  }
  return g.__loomRunsDerive
}

// Listening from the moment the module loads: writes made before the first read count too.
holder()

export function deriveStatus(): DeriveStatus {
  return { ...holder().status }
}

/** How far derived data trails now, in ms (null before the first batch). */
export function deriveLagMs(now = Date.now()): number | null {
  const covered = holder().status.coveredAt
  return covered ? Math.max(0, now - covered.getTime()) : null
}

function context(): DeriveContext {
  const { databases } = getConfig()
  return { t: tableNames(databases), runsDatabase: databases.runs, history: false }
}

async function withHistory(ctx: DeriveContext): Promise<DeriveContext> {
  const tables = await existingTables()
  return { ...ctx, history: tables.has(ctx.t.history) && tables.has(ctx.t.historyView) }
}

/**
 * A statement of an install: long ones are allowed (the first derivation reads every row). It is a
 * write like any other, so every answer kept from before it is dropped.
 */
export function exec(statement: Sql, settings: Record<string, string | number> = {}): Promise<void> {
  return runCommandWith(statement, { max_execution_time: 0, ...settings })
}

/**
 * A statement of a batch. It does not announce itself as a write: the console's own writes already
 * dropped what they touch, and what agents wrote elsewhere reaches kept answers through the change
 * poll; dropping every kept answer on every batch would defeat them.
 */
async function batchExec(statement: Sql, settings: Record<string, string | number> = {}): Promise<void> {
  try {
    await getClient().command({
      query: statement.sql,
      query_params: statement.params,
      clickhouse_settings: { max_execution_time: 0, ...settings },
    })
  } catch (err) {
    throw classifyClickHouseError(err)
  }
}

const logRowSchema = z.object({
  seq: z.coerce.number(),
  step: z.coerce.number(),
  history_from: z.coerce.number(),
  history_to: z.coerce.number(),
  runs_from: z.coerce.number(),
  runs_to: z.coerce.number(),
})
type LogRow = z.infer<typeof logRowSchema>

async function lastLogRow(ctx: DeriveContext): Promise<LogRow | null> {
  const rows = await selectRows(
    sql`SELECT seq, step, history_from, history_to, runs_from, runs_to FROM ${trusted(deriveNames(ctx.runsDatabase).log)}
     ORDER BY seq DESC, step DESC LIMIT 1`,
    logRowSchema,
  )
  return rows[0] ?? null
}

async function writeLog(ctx: DeriveContext, row: LogRow, runsCount: number, elapsedMs: number): Promise<void> {
  await batchExec(
    sql`INSERT INTO ${trusted(deriveNames(ctx.runsDatabase).log)} (seq, step, history_from, history_to, runs_from, runs_to, runs_count, at, elapsed_ms)
     VALUES (${param('seq', 'UInt64', row.seq)}, ${param('step', 'UInt8', row.step)}, ${param('hf', 'UInt64', row.history_from)},
       ${param('ht', 'UInt64', row.history_to)}, ${param('rf', 'UInt64', row.runs_from)}, ${param('rt', 'UInt64', row.runs_to)},
       ${param('n', 'UInt64', runsCount)}, now64(3), ${param('ms', 'UInt64', Math.round(elapsedMs))})`,
  )
}

/** The highest block number written so far to the working-memory source and to loom.runs. */
export async function watermarks(ctx: DeriveContext): Promise<{ history: number; runs: number }> {
  const wmTable = ctx.history ? ctx.t.history : ctx.t.workingMemory
  const split = (name: string) => [name.slice(0, name.indexOf('.')), name.slice(name.indexOf('.') + 1)]
  const [hd, ht] = split(wmTable)
  const [rd, rt] = split(ctx.t.runs)
  // Equalities on database and table: system.parts then lists only those tables' parts. A tuple IN
  // is not pushed down, and it read every part of every table (35 ms against 3 on the demo data).
  const rows = await selectRows(
    sql`SELECT concat(database, '.', table) AS name, max(max_block_number) AS mx FROM system.parts
     WHERE active AND ((database = ${param('hd', 'String', hd)} AND table = ${param('ht', 'String', ht)})
       OR (database = ${param('rd', 'String', rd)} AND table = ${param('rt', 'String', rt)}))
     GROUP BY database, table`,
    z.object({ name: z.string(), mx: z.coerce.number() }),
  )
  const of = (name: string) => rows.find((r) => r.name === name)?.mx ?? 0
  return { history: of(wmTable), runs: of(ctx.t.runs) }
}

async function nextSeq(ctx: DeriveContext, last: LogRow | null): Promise<number> {
  if (last) return last.seq + 1
  // The log expired or is new: stay above every batch the per-run tables have seen.
  const [row] = await selectRows(
    sql`SELECT max(seq) AS mx FROM ${trusted(runRollupNames(ctx.runsDatabase).state)}`,
    z.object({ mx: z.coerce.number() }),
  )
  return (row?.mx ?? 0) + 1
}

/** The deduplication token of a batch's sums insert: its seq and watermarks, unique to the batch. */
const sumsToken = (row: LogRow) => `loom-runs-derive-${row.seq}-${row.history_to}-${row.runs_to}`

/** Runs the steps of batch `row` from `row.step` on (a new batch starts at planning). */
async function runSteps(ctx: DeriveContext, row: LogRow, started: number): Promise<number> {
  const scope: DeriveScope = { all: false, seq: row.seq }
  const dirty = deriveNames(ctx.runsDatabase).dirty
  let step: number = row.step
  if (step === STEP.planning) {
    await batchExec(sessionsInsert(ctx, row.history_from))
    await batchExec(dirtyInsert(ctx, row.seq, row.history_from, row.runs_from))
    step = STEP.planned
  }
  const [{ n }] = await selectRows(
    sql`SELECT uniqExact(org, namespace, agent, run_id) AS n FROM ${trusted(dirty)} WHERE seq = ${param('seq', 'UInt64', row.seq)}`,
    z.object({ n: z.coerce.number() }),
  )
  if (row.step === STEP.planning) await writeLog(ctx, { ...row, step: STEP.planned }, n, performance.now() - started)
  if (step === STEP.planned) {
    // A retried batch stages its rows again under the same token: refused as a repeat, not doubled.
    await batchExec(rowsInsert(ctx, scope), { insert_deduplication_token: `${sumsToken(row)}-rows` })
    for (const s of deriveStatements(ctx, scope)) {
      const cheaper = s.cheaper && (await selectRows(s.cheaper.probe, z.object({}).passthrough())).length === 0
      await batchExec(cheaper ? s.cheaper!.sql : s.sql)
    }
    await batchExec(rollupStage(ctx, scope))
    await writeLog(ctx, { ...row, step: STEP.staged }, n, performance.now() - started)
    step = STEP.staged
  }
  if (step === STEP.staged) {
    await batchExec(rollupSumsInsert(ctx, scope), { insert_deduplication_token: sumsToken(row) })
    await batchExec(rollupStateInsert(ctx, scope))
    await batchExec(rollupTopInsert(ctx, scope))
    await writeLog(ctx, { ...row, step: STEP.done }, n, performance.now() - started)
  }
  return n
}

/** One batch: resume an unfinished one, or derive what was written past the last watermarks. */
async function batch(): Promise<BatchReport> {
  const h = holder()
  const started = performance.now()
  const checkedAt = new Date()
  h.currentCoversLocal = h.pendingLocal
  h.pendingLocal = false
  try {
    const report = await inDerive.run(true, async (): Promise<BatchReport> => {
      const ctx = await withHistory(context())
      const tables = await existingTables()
      if (!tables.has(runIndexNames(ctx.runsDatabase).meta)) return { seq: null, runs: 0, elapsedMs: 0, resumed: false }
      const last = await lastLogRow(ctx)
      const source = ctx.history ? ctx.t.history : ctx.t.workingMemory
      if (last && last.step < STEP.done) {
        const runs = await runSteps(ctx, last, started)
        return { seq: last.seq, runs, elapsedMs: performance.now() - started, resumed: true }
      }
      const marks = await watermarks(ctx)
      const from = { history: last?.history_to ?? 0, runs: last?.runs_to ?? 0 }
      if (marks.history <= from.history && marks.runs <= from.runs) {
        return {
          seq: null,
          runs: 0,
          elapsedMs: performance.now() - started,
          resumed: false,
          derivedTo: { table: source, block: from.history },
        }
      }
      const row: LogRow = {
        seq: await nextSeq(ctx, last),
        step: STEP.planning,
        history_from: from.history,
        history_to: Math.max(marks.history, from.history),
        runs_from: from.runs,
        runs_to: Math.max(marks.runs, from.runs),
      }
      await writeLog(ctx, row, 0, 0)
      const runs = await runSteps(ctx, row, started)
      return {
        seq: row.seq,
        runs,
        elapsedMs: performance.now() - started,
        resumed: false,
        derivedTo: { table: source, block: row.history_to },
      }
    })
    const s = h.status
    // A resumed batch covers only up to its own watermarks: the next call reads on from there.
    if (!report.resumed) s.coveredAt = checkedAt
    if (report.derivedTo) h.derivedTo = report.derivedTo
    s.lastRunAt = new Date()
    s.error = null
    if (report.seq !== null) {
      s.batches++
      s.lastRuns = report.runs
      s.lastElapsedMs = Math.round(report.elapsedMs)
    }
    return report
  } catch (err) {
    h.status.error = err instanceof Error ? err.message : String(err)
    h.status.lastRunAt = new Date()
    // The rows are still there: the next call (timer, read or write) tries again.
    h.pendingLocal = true
    throw err
  }
}

/**
 * Derives everything written before this call: runs a batch, or, when one is already running
 * (which may have missed what was just written), the one after it, shared by every caller that
 * arrives meanwhile. A resumed batch is followed by a fresh one.
 */
export function deriveNow(): Promise<BatchReport> {
  const h = holder()
  if (h.current) {
    h.queued ??= h.current
      .then(
        () => undefined,
        () => undefined,
      )
      .then(() => {
        h.queued = null
        return start(h)
      })
    return h.queued
  }
  return start(h)
}

function start(h: Holder): Promise<BatchReport> {
  const p = (async () => {
    let report = await batch()
    if (report.resumed) report = await batch()
    return report
  })()
  h.current = p
  const clear = () => {
    if (h.current === p) h.current = null
  }
  p.then(clear, clear)
  return p
}

/**
 * Runs `fn` (a request's handler); when it wrote, derives what it wrote before returning, so the
 * operator who made the change sees it in every list and count read after the answer. Reads of other
 * requests do not wait for these batches: each begins at least twice the last batch's time after it
 * ended, shared by every write that ends meanwhile, so derivation holds at most a third of the
 * engine however fast operators write.
 */
export async function deriveAfterWrites<T>(fn: () => Promise<T>): Promise<T> {
  const scope: WriteScope = { wrote: false, open: true, agent: false }
  try {
    return await writeScope.run(scope, fn)
  } finally {
    scope.open = false
    if (scope.wrote) await deriveSpaced().catch(() => undefined)
  }
}

/**
 * Runs `fn` (an agent's work in this process, the live demo's) as the agents write: left to the
 * timer, never waited for by a read.
 */
export function asAgentWrites<T>(fn: () => Promise<T>): Promise<T> {
  return writeScope.run({ wrote: false, open: false, agent: true }, fn)
}

function deriveSpaced(): Promise<BatchReport> {
  const h = holder()
  h.spaced ??= (async () => {
    if (h.current) await h.current.catch(() => undefined)
    const last = h.status.lastRunAt?.getTime() ?? 0
    const wait = last + 2 * h.status.lastElapsedMs - Date.now()
    if (wait > 0) await new Promise((r) => setTimeout(r, Math.min(wait, FRESHNESS_LIMIT_MS)))
    // From here on, a write that ends starts the next spaced batch: this one may begin before it.
    h.spaced = null
    return deriveNow()
  })()
  return h.spaced
}

/**
 * Called before a read of derived data: derives first when this process wrote since the last
 * batch, or when the timer has fallen behind by more than the freshness limit. A failure is not
 * the read's: it is reported by `GET /api/health`, and the read answers from what is there.
 */
export async function ensureFresh(): Promise<void> {
  const h = holder()
  const behind =
    h.timer !== null && (h.status.coveredAt === null || Date.now() - h.status.coveredAt.getTime() > FRESHNESS_LIMIT_MS)
  try {
    if (h.pendingLocal || behind) await deriveNow()
    // A batch already running for this process's writes: wait for it too.
    else if (h.current && h.currentCoversLocal) await h.current
  } catch {
    // Reported through deriveStatus().
  }
}

/**
 * True once a derived structure is installed: its marker table `meta` (created last) exists. A caller
 * about to read derived data gets it current first (`ensureFresh`).
 */
export async function derivedReady(meta: string, signal?: AbortSignal): Promise<boolean> {
  if (!(await existingTables(signal)).has(meta)) return false
  await ensureFresh()
  return true
}

/**
 * Where rows not derived yet begin: the working-memory source and the block number its derived rows
 * reach (rows in parts past it are newer). Null until this process has run a batch.
 */
export function underivedTail(): { table: string; afterBlock: number } | null {
  const to = holder().derivedTo
  return to ? { table: to.table, afterBlock: to.block } : null
}

/** Starts the server's timer: a batch every `intervalMs` (agents' writes reach derived data within about that). */
export function startDeriving(intervalMs: number): void {
  const h = holder()
  if (h.timer) return
  // At once: what was written before the server started (by agents, or a seed) is derived before the first page.
  deriveNow().catch((err) =>
    console.error(
      '[loom-runs] derivation batch failed (retried on the next tick):',
      err instanceof Error ? err.message : err,
    ),
  )
  h.timer = setInterval(() => {
    if (h.current) return
    // The engine runs one statement at a time: a batch that found work is followed by at least
    // twice its own time of reads, so derivation never takes more than a third of the engine.
    const last = h.status.lastRunAt?.getTime() ?? 0
    if (h.status.lastElapsedMs > 0 && Date.now() - last < 2 * h.status.lastElapsedMs && !h.pendingLocal) return
    deriveNow().catch((err) =>
      console.error(
        '[loom-runs] derivation batch failed (retried on the next tick):',
        err instanceof Error ? err.message : err,
      ),
    )
  }, intervalMs)
  h.timer.unref()
}

export function stopDeriving(): void {
  const h = holder()
  if (h.timer) clearInterval(h.timer)
  h.timer = null
}
