import { z } from 'zod'
import { selectRows } from '../clickhouse/query'
import { insertRows } from './insert'
import { param, sql, trusted } from '../clickhouse/sql'
import { toChTime } from '../tables/time'
import { identityParams, systemClock, type Clock, type Identity } from './identity'
import { withKeyLock } from './keyed-mutex'
import { tableNames, source } from './tables'

export type ConversationInput = Identity & { conversationId: string; runId: string; title: string }

/** `conversation.create` with a run_id binds the transcript to the run. */
export async function conversationCreate(input: ConversationInput, now: Clock = systemClock): Promise<void> {
  await insertRows(tableNames().conversations, [
    {
      ...identityParams(input),
      conversation_id: input.conversationId,
      run_id: input.runId,
      title: input.title,
      created_at: toChTime(now()),
    },
  ])
}

export type TurnInput = Identity & {
  conversationId: string
  runId: string
  role: 'system' | 'user' | 'assistant' | 'tool'
  content: string
  toolName?: string
  inputTokens?: number
  outputTokens?: number
  costUsd?: number
}

/** `conversation.append`: the next turn_index of the conversation. */
export function conversationAppend(input: TurnInput, now: Clock = systemClock): Promise<number> {
  const key = JSON.stringify(['conv', input.org, input.namespace, input.agent, input.conversationId])
  return withKeyLock(key, async () => {
    const [last] = await selectRows(
      sql`SELECT max(turn_index) AS last, count() AS n FROM ${trusted(source(tableNames().turns))}
       WHERE org = ${param('org', 'String', input.org)} AND namespace = ${param('namespace', 'String', input.namespace)}
         AND agent = ${param('agent', 'String', input.agent)} AND conversation_id = ${param('conversation_id', 'String', input.conversationId)}`,
      z.object({ last: z.coerce.number(), n: z.coerce.number() }),
    )
    const turnIndex = last && last.n > 0 ? last.last + 1 : 0
    await insertRows(tableNames().turns, [
      {
        ...identityParams(input),
        conversation_id: input.conversationId,
        run_id: input.runId,
        turn_index: turnIndex,
        role: input.role,
        content: input.content,
        tool_name: input.toolName ?? '',
        input_tokens: input.inputTokens ?? 0,
        output_tokens: input.outputTokens ?? 0,
        cost_usd: input.costUsd ?? 0,
        created_at: toChTime(now()),
      },
    ])
    return turnIndex
  })
}
