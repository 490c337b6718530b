import { z } from 'zod'
import { queryRows } from '../clickhouse/query'
import { chTimeToIso } from '../clickhouse/time'
import { runParams, type RunRef } from '../loom/identity'
import { tableNames, source } from '../loom/tables'
import { RUN_SCOPE } from './working-memory'
import { TURNS_CAP, keepCap, overCap, type ListCut } from './list-cut'

export type Turn = {
  turnIndex: number
  role: string
  content: string
  toolName: string
  inputTokens: number
  outputTokens: number
  costUsd: number
  createdAt: string
}
export type Conversation = { conversationId: string; title: string; createdAt: string; userId: string; sessionId: string; turns: Turn[] }

const convSchema = z.object({
  conversation_id: z.string(),
  latest_title: z.string(),
  first_at: z.string().transform(chTimeToIso),
  any_user: z.string(),
  any_session: z.string(),
})
const turnSchema = z.object({
  conversation_id: z.string(),
  turn_index: z.coerce.number(),
  role: z.string(),
  content: z.string(),
  tool_name: z.string(),
  input_tokens: z.coerce.number(),
  output_tokens: z.coerce.number(),
  cost_usd: z.coerce.number(),
  created_at: z.string().transform(chTimeToIso),
})

/** Transcripts bound to the run; turns ordered by turn_index whatever order they were inserted in. */
export async function runConversations(run: RunRef, signal?: AbortSignal): Promise<{ conversations: Conversation[]; cuts: ListCut[] }> {
  const t = tableNames()
  const [convs, turnRows] = await Promise.all([
    queryRows(
      `SELECT conversation_id, argMax(title, created_at) AS latest_title, toString(min(created_at)) AS first_at,
          any(user_id) AS any_user, any(session_id) AS any_session
       FROM ${source(t.conversations)} WHERE ${RUN_SCOPE}
       GROUP BY conversation_id ORDER BY first_at`,
      runParams(run),
      convSchema,
      { signal },
    ),
    queryRows(
      `SELECT conversation_id, turn_index, role, content, tool_name, input_tokens, output_tokens, cost_usd, toString(created_at) AS created_at
       FROM ${source(t.turns)} WHERE ${RUN_SCOPE}
       ORDER BY conversation_id, turn_index
       LIMIT {cap:UInt32}`,
      { ...runParams(run), cap: overCap(TURNS_CAP) },
      turnSchema,
      { signal },
    ),
  ])
  const cuts: ListCut[] = []
  const turns = keepCap(turnRows, TURNS_CAP, 'turns', cuts)
  const byConv = new Map<string, Conversation>()
  for (const c of convs) {
    byConv.set(c.conversation_id, {
      conversationId: c.conversation_id,
      title: c.latest_title,
      createdAt: c.first_at,
      userId: c.any_user,
      sessionId: c.any_session,
      turns: [],
    })
  }
  for (const tr of turns) {
    let c = byConv.get(tr.conversation_id)
    if (!c) {
      // Turns whose conversation row is missing still belong to the run.
      c = { conversationId: tr.conversation_id, title: '', createdAt: tr.created_at, userId: '', sessionId: '', turns: [] }
      byConv.set(tr.conversation_id, c)
    }
    c.turns.push({
      turnIndex: tr.turn_index,
      role: tr.role,
      content: tr.content,
      toolName: tr.tool_name,
      inputTokens: tr.input_tokens,
      outputTokens: tr.output_tokens,
      costUsd: tr.cost_usd,
      createdAt: tr.created_at,
    })
  }
  return { conversations: [...byConv.values()], cuts }
}
