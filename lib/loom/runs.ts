import { insertRows } from './insert'
import { toChTime } from '../tables/time'
import { RUN_COLUMNS, runRowSchema, type RunRow } from '../tables/runs'
import { nextVersion, runKeyText, systemClock, type Clock, type Identity, type RunRef } from './identity'
import { withKeyLock } from './keyed-mutex'
import { latestRow } from './latest-row'
import { runScope } from './scope'
import { tableNames } from './tables'

/** The row `FINAL` returns for the run (its highest version), or null. */
export async function runLatestRow(run: RunRef, signal?: AbortSignal): Promise<RunRow | null> {
  return latestRow(tableNames().runs, RUN_COLUMNS, runScope(run), runRowSchema, signal)
}

function toInsert(row: RunRow) {
  return {
    ...row,
    started_at: toChTime(row.started_at),
    last_begin_at: toChTime(row.last_begin_at),
    completed_at: row.completed_at === null ? null : toChTime(row.completed_at),
  }
}

async function writeRun(run: RunRef, change: (previous: RunRow | null) => RunRow): Promise<RunRow> {
  return withKeyLock(`run:${runKeyText(run)}`, async () => {
    const previous = await runLatestRow(run)
    const next = { ...change(previous), version: nextVersion(previous?.version ?? null) }
    await insertRows(tableNames().runs, [toInsert(next)])
    return next
  })
}

export type RunBeginInput = Identity & {
  runId: string
  goal: string
  userRequest?: string
  model?: string
  environment?: string
  metadata?: Record<string, unknown>
}

/** `run.begin`: attempt 1 on the first call; each later begin (a resumed process) adds 1. */
export function runBegin(input: RunBeginInput, now: Clock = systemClock): Promise<RunRow> {
  const at = now().toISOString()
  return writeRun(input, (prev) => ({
    org: input.org,
    namespace: input.namespace,
    agent: input.agent,
    user_id: input.userId,
    session_id: input.sessionId,
    run_id: input.runId,
    goal: input.goal || prev?.goal || '',
    user_request: input.userRequest ?? prev?.user_request ?? '',
    model: input.model ?? prev?.model ?? '',
    environment: input.environment ?? prev?.environment ?? '',
    metadata: input.metadata ? JSON.stringify(input.metadata) : (prev?.metadata ?? '{}'),
    status: 'running',
    outcome: '',
    final_response: '',
    memories_used: prev?.memories_used ?? [],
    recalled_keys: prev?.recalled_keys ?? [],
    reflection: prev?.reflection ?? '',
    confidence: prev?.confidence ?? null,
    attempt: (prev?.attempt ?? 0) + 1,
    turns: prev?.turns ?? 0,
    input_tokens: prev?.input_tokens ?? 0,
    output_tokens: prev?.output_tokens ?? 0,
    cost_usd: prev?.cost_usd ?? 0,
    started_at: prev?.started_at ?? at,
    last_begin_at: at,
    completed_at: null,
    duration_ms: null,
    version: '0',
  }))
}

export type RunUsage = { turns?: number; inputTokens?: number; outputTokens?: number; costUsd?: number }

export type RunCompleteInput = RunRef &
  RunUsage & {
    status: 'succeeded' | 'failed' | 'cancelled'
    outcome?: string
    finalResponse?: string
    memoriesUsed?: string[]
    recalledKeys?: string[]
    reflection?: Record<string, unknown> | string
    confidence?: number | null
  }

/** `run.complete`: records the outcome, reflection and usage of a run that began. */
export function runComplete(input: RunCompleteInput, now: Clock = systemClock): Promise<RunRow> {
  const at = now()
  return writeRun(input, (prev) => {
    if (!prev) throw new Error(`run.complete before run.begin for run ${input.runId}`)
    return {
      ...prev,
      status: input.status,
      outcome: input.outcome ?? prev.outcome,
      final_response: input.finalResponse ?? prev.final_response,
      memories_used: input.memoriesUsed ?? prev.memories_used,
      recalled_keys: input.recalledKeys ?? prev.recalled_keys,
      reflection:
        input.reflection === undefined
          ? prev.reflection
          : typeof input.reflection === 'string'
            ? input.reflection
            : JSON.stringify(input.reflection),
      confidence: input.confidence === undefined ? prev.confidence : input.confidence,
      turns: prev.turns + (input.turns ?? 0),
      input_tokens: prev.input_tokens + (input.inputTokens ?? 0),
      output_tokens: prev.output_tokens + (input.outputTokens ?? 0),
      cost_usd: prev.cost_usd + (input.costUsd ?? 0),
      completed_at: at.toISOString(),
      duration_ms: Math.max(0, at.getTime() - Date.parse(prev.started_at)),
    }
  })
}

/** Adds usage (turns, tokens, cost) to a run that is still going. */
export function runRecordUsage(run: RunRef, usage: RunUsage): Promise<RunRow> {
  return writeRun(run, (prev) => {
    if (!prev) throw new Error(`usage recorded before run.begin for run ${run.runId}`)
    return {
      ...prev,
      turns: prev.turns + (usage.turns ?? 0),
      input_tokens: prev.input_tokens + (usage.inputTokens ?? 0),
      output_tokens: prev.output_tokens + (usage.outputTokens ?? 0),
      cost_usd: prev.cost_usd + (usage.costUsd ?? 0),
    }
  })
}
