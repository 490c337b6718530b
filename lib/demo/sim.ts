/**
 * The simulated agent: a process with its own identity, source_trace and simulated clock,
 * writing only through Loom's write semantics (lib/loom/*). Every write gets its time from
 * the clock, which moves forward a little before each call, so timestamps are strictly
 * increasing within a run and deterministic for a seed.
 */
import { logSearch } from '../loom/search-trace'
import { contextOffload } from '../loom/context-blobs'
import { conversationAppend, conversationCreate, type TurnInput } from '../loom/conversations'
import type { BlockRef, Clock, Identity, WriterContext } from '../loom/identity'
import { memorySet, type MemorySetInput } from '../loom/memory'
import {
  runBegin,
  runComplete,
  runRecordUsage,
  type RunBeginInput,
  type RunCompleteInput,
  type RunUsage,
} from '../loom/runs'
import { wmAppend, wmDelete, wmGet, wmSet, type WriteOptions, type WriteResult } from '../loom/working-memory'
import { Rng } from './prng'
import type { DemoRun } from './scenarios'
import { runKeyText } from '../loom/identity'

export class DemoClockError extends Error {}

/** A clock that only moves when told to, and never past `limit` (the seed's `now`). */
export class SimClock {
  readonly now: Clock = () => new Date(this.t)

  constructor(
    private t: number,
    private readonly limit: number,
  ) {
    this.check()
  }

  get ms(): number {
    return this.t
  }

  advanceMs(ms: number): void {
    this.t += Math.max(1, Math.round(ms))
    this.check()
  }

  /** Moves forward a random number of seconds in [minS, maxS]. */
  advance(rng: Rng, minS: number, maxS: number): void {
    this.advanceMs(rng.int(Math.round(minS * 1000), Math.round(maxS * 1000)))
  }

  /** Jumps to `ms` (forward only). */
  jumpTo(ms: number): void {
    if (ms <= this.t) throw new DemoClockError(`demo clock cannot move back from ${this.t} to ${ms}`)
    this.t = ms
    this.check()
  }

  private check() {
    // A bug in a scenario's schedule, never a data condition: fail loudly (tests seed several seeds).
    if (this.t > this.limit) {
      throw new DemoClockError(
        `demo clock ran past now: ${new Date(this.t).toISOString()} > ${new Date(this.limit).toISOString()}`,
      )
    }
  }
}

/** Counts of what the seed wrote. */
export class Tally {
  runBegins = 0
  runCompletes = 0
  usageUpdates = 0
  workingMemoryRows = 0
  tombstones = 0
  refusedWrites = 0
  conversations = 0
  turns = 0
  memoryWrites = 0
  searches = 0
  blobs = 0
  auditRows = 0
  readonly runStatus = new Map<string, string>()
  readonly checkpointOnlyRuns = new Set<string>()

  static runKey(run: { org: string; namespace: string; agent: string; runId: string }) {
    return runKeyText(run)
  }
}

/** A UUID-shaped id (version 4 layout) drawn from the PRNG, so it is stable for a seed. */
export function uuidFrom(rng: Rng): string {
  const h = rng.hex(32).split('')
  h[12] = '4'
  h[16] = ((parseInt(h[16], 16) & 0x3) | 0x8).toString(16)
  const s = h.join('')
  return `${s.slice(0, 8)}-${s.slice(8, 12)}-${s.slice(12, 16)}-${s.slice(16, 20)}-${s.slice(20)}`
}

/** `" ".join(sorted(done))`: the checkpoint of an item-list run. */
export function joinSorted(done: Iterable<string>): string {
  return [...done].sort().join(' ')
}

/** The inverse of joinSorted, for a resumed process. */
export function parseDone(content: string | null): Set<string> {
  return new Set((content ?? '').split(' ').filter((s) => s !== ''))
}

/** `item-001` .. `item-<n>` (zero-padded so that sorted order is numeric order). */
export function itemIds(count: number, prefix = 'item', width = 3): string[] {
  return Array.from({ length: count }, (_, i) => `${prefix}-${String(i + 1).padStart(width, '0')}`)
}

export function sourceTrace(
  rng: Rng,
  hosts: readonly string[] = ['host-a', 'host-b', 'host-c', 'worker-1', 'worker-2'],
) {
  return `${rng.pick(hosts)}/pid-${rng.int(1000, 65000)}`
}

/** Per-token prices of the models the demo's agents "use" (USD per token). */
const PRICES: Record<string, { input: number; output: number }> = {
  'claude-sonnet-4': { input: 3e-6, output: 15e-6 },
  'claude-haiku-3.5': { input: 0.8e-6, output: 4e-6 },
  'gpt-4o-mini': { input: 0.15e-6, output: 0.6e-6 },
}

export function costOf(model: string, inputTokens: number, outputTokens: number): number {
  const p = PRICES[model] ?? PRICES['claude-sonnet-4']
  return Math.round((inputTokens * p.input + outputTokens * p.output) * 1e6) / 1e6
}

export type ProcessOptions = {
  sourceTrace: string
  clock: SimClock
  rng: Rng
  tally: Tally
  /** Defaults to the run's own (user_id, session_id). */
  userId?: string
  sessionId?: string
  /** Defaults to the agent's name. */
  actor?: string
  model?: string
}

/** One OS process of an agent working on one run. A crash is simply: stop calling it. */
export class AgentProcess {
  readonly identity: Identity
  readonly ctx: WriterContext
  readonly clock: SimClock
  readonly rng: Rng
  readonly model: string
  private readonly tally: Tally
  private usage = { turns: 0, inputTokens: 0, outputTokens: 0, costUsd: 0 }

  constructor(
    readonly run: DemoRun,
    opts: ProcessOptions,
  ) {
    this.identity = {
      org: run.org,
      namespace: run.namespace,
      agent: run.agent,
      userId: opts.userId ?? run.userId,
      sessionId: opts.sessionId ?? run.sessionId,
    }
    this.clock = opts.clock
    this.rng = opts.rng
    this.tally = opts.tally
    this.model = opts.model ?? 'claude-sonnet-4'
    this.ctx = { actor: opts.actor ?? run.agent, sourceTrace: opts.sourceTrace, now: this.clock.now }
  }

  /** Time spent doing a unit of work. */
  work(minS: number, maxS: number): void {
    this.clock.advance(this.rng, minS, maxS)
  }

  /** The gap between two calls of the same step (a few ms to a fraction of a second). */
  private step(): void {
    this.clock.advanceMs(this.rng.int(15, 400))
  }

  block(blockKey = 'checkpoint'): BlockRef {
    return { ...this.identity, runId: this.run.runId, blockKey }
  }

  /** `run.begin`. With `immediate`, at the clock's current instant (no call latency first). */
  async begin(
    input: Omit<RunBeginInput, keyof Identity | 'runId' | 'model'> & { model?: string },
    opts: { immediate?: boolean } = {},
  ) {
    if (!opts.immediate) this.step()
    const row = await runBegin({ ...this.identity, runId: this.run.runId, model: this.model, ...input }, this.clock.now)
    this.tally.runBegins++
    this.tally.runStatus.set(Tally.runKey(this.run), 'running')
    return row
  }

  /** `resume(run_id)`: the checkpoint this process's identity sees, or null. */
  async resume(blockKey = 'checkpoint'): Promise<string | null> {
    this.step()
    return wmGet(this.block(blockKey))
  }

  /** `checkpoint(state, run_id)`. Throws (and writes nothing) when over the block's char_limit. */
  async checkpoint(state: string, opts: WriteOptions = {}): Promise<WriteResult> {
    return this.set('checkpoint', state, opts)
  }

  async set(blockKey: string, content: string, opts: WriteOptions = {}): Promise<WriteResult> {
    this.step()
    try {
      const result = await wmSet(this.block(blockKey), content, this.ctx, opts)
      this.tally.workingMemoryRows++
      return result
    } catch (err) {
      this.tally.refusedWrites++
      throw err
    }
  }

  async append(blockKey: string, text: string): Promise<WriteResult> {
    this.step()
    const result = await wmAppend(this.block(blockKey), text, this.ctx)
    this.tally.workingMemoryRows++
    return result
  }

  async clear(blockKey = 'checkpoint'): Promise<WriteResult> {
    this.step()
    const result = await wmDelete(this.block(blockKey), this.ctx)
    this.tally.workingMemoryRows++
    this.tally.tombstones++
    return result
  }

  /** `run.complete`, with the usage this process accumulated through its turns. */
  async complete(input: Omit<RunCompleteInput, keyof RunRefLike>) {
    this.step()
    const usage = this.takeUsage()
    const row = await runComplete(
      {
        org: this.run.org,
        namespace: this.run.namespace,
        agent: this.run.agent,
        runId: this.run.runId,
        turns: usage.turns + (input.turns ?? 0),
        inputTokens: usage.inputTokens + (input.inputTokens ?? 0),
        outputTokens: usage.outputTokens + (input.outputTokens ?? 0),
        costUsd: usage.costUsd + (input.costUsd ?? 0),
        status: input.status,
        outcome: input.outcome,
        finalResponse: input.finalResponse,
        memoriesUsed: input.memoriesUsed,
        recalledKeys: input.recalledKeys,
        reflection: input.reflection,
        confidence: input.confidence,
      },
      this.clock.now,
    )
    this.tally.runCompletes++
    this.tally.runStatus.set(Tally.runKey(this.run), input.status)
    return row
  }

  /** Reports the usage so far to the run row (a long-running process does this now and then). */
  async recordUsage(extra: RunUsage = {}) {
    const usage = this.takeUsage()
    await runRecordUsage(
      { org: this.run.org, namespace: this.run.namespace, agent: this.run.agent, runId: this.run.runId },
      {
        turns: usage.turns + (extra.turns ?? 0),
        inputTokens: usage.inputTokens + (extra.inputTokens ?? 0),
        outputTokens: usage.outputTokens + (extra.outputTokens ?? 0),
        costUsd: usage.costUsd + (extra.costUsd ?? 0),
      },
    )
    this.tally.usageUpdates++
  }

  private takeUsage() {
    const u = this.usage
    this.usage = { turns: 0, inputTokens: 0, outputTokens: 0, costUsd: 0 }
    return u
  }

  /** `conversation.create` bound to the run; returns the conversation id. */
  async conversation(title: string): Promise<string> {
    this.step()
    const conversationId = `conv-${this.rng.hex(10)}`
    await conversationCreate({ ...this.identity, conversationId, runId: this.run.runId, title }, this.clock.now)
    this.tally.conversations++
    return conversationId
  }

  /** `conversation.append`; assistant turns carry tokens and cost. */
  async turn(
    conversationId: string,
    role: TurnInput['role'],
    content: string,
    opts: { toolName?: string; inputTokens?: number; outputTokens?: number; thinkS?: [number, number] } = {},
  ): Promise<number> {
    const [minS, maxS] = opts.thinkS ?? (role === 'assistant' ? [2, 14] : role === 'tool' ? [0.3, 4] : [0.05, 0.5])
    this.clock.advance(this.rng, minS, maxS)
    const inputTokens = opts.inputTokens ?? 0
    const outputTokens = opts.outputTokens ?? 0
    const costUsd = costOf(this.model, inputTokens, outputTokens)
    const index = await conversationAppend(
      {
        ...this.identity,
        conversationId,
        runId: this.run.runId,
        role,
        content,
        toolName: opts.toolName,
        inputTokens,
        outputTokens,
        costUsd,
      },
      this.clock.now,
    )
    this.usage.turns++
    this.usage.inputTokens += inputTokens
    this.usage.outputTokens += outputTokens
    this.usage.costUsd += costUsd
    this.tally.turns++
    return index
  }

  /** `memory.set` with this run's run_id. Memories default to the user's scope (session ''). */
  async remember(input: Omit<MemorySetInput, keyof Identity | 'runId' | 'memoryId'> & { sessionId?: string }) {
    this.step()
    const result = await memorySet(
      {
        ...this.identity,
        sessionId: input.sessionId ?? '',
        runId: this.run.runId,
        memoryId: uuidFrom(this.rng),
        memoryKey: input.memoryKey,
        value: input.value,
        memoryType: input.memoryType,
        confidence: input.confidence,
        pinned: input.pinned,
        tags: input.tags,
        actor: input.actor,
      },
      this.clock.now,
    )
    this.tally.memoryWrites++
    return result
  }

  /** A `memory.search` as the trace log records it. */
  async search(
    query: string,
    hits: { memoryKey: string; score: number }[],
    opts: { mode?: 'hybrid' | 'vector' | 'keyword'; topK?: number; filters?: Record<string, unknown> } = {},
  ): Promise<string> {
    this.step()
    const latencyMs = Math.round(this.rng.float(4, 60) * 100) / 100
    this.clock.advanceMs(latencyMs)
    const searchId = await logSearch(
      {
        ...this.identity,
        runId: this.run.runId,
        query,
        mode: opts.mode ?? 'hybrid',
        filters: opts.filters,
        topK: opts.topK ?? 5,
        hits,
        latencyMs,
        searchId: uuidFrom(this.rng),
      },
      this.clock.now,
    )
    this.tally.searches++
    return searchId
  }

  /** `context.offload`; returns the blob_key and when the blob expires. */
  async offload(
    summary: string,
    content: string,
    ttlSeconds: number,
  ): Promise<{ blobKey: string; expiresAtMs: number }> {
    this.step()
    const blobKey = await contextOffload(
      { ...this.identity, runId: this.run.runId, summary, content, ttlSeconds, blobKey: `blob-${this.rng.hex(12)}` },
      this.clock.now,
    )
    this.tally.blobs++
    return { blobKey, expiresAtMs: this.clock.ms + ttlSeconds * 1000 }
  }
}

type RunRefLike = { org: string; namespace: string; agent: string; runId: string }

/** Runs a checkpoint/resume worker over `items`: resume, skip done, do one, checkpoint. */
export async function itemWorker(
  p: AgentProcess,
  items: readonly string[],
  opts: {
    /** Seconds one item takes. */
    itemS: [number, number]
    /** The process dies after doing this item's work, before its checkpoint lands. */
    crashOn?: string
  },
): Promise<{ outcome: 'finished' | 'crashed'; done: Set<string>; skipped: number; resumedFrom: number }> {
  const done = parseDone(await p.resume())
  const resumedFrom = done.size
  let skipped = 0
  for (const item of items) {
    if (done.has(item)) {
      skipped++
      continue
    }
    p.work(opts.itemS[0], opts.itemS[1])
    if (item === opts.crashOn) return { outcome: 'crashed', done, skipped, resumedFrom }
    done.add(item)
    await p.checkpoint(joinSorted(done))
  }
  return { outcome: 'finished', done, skipped, resumedFrom }
}
