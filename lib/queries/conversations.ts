import { z } from 'zod'
import { selectRows } from '../clickhouse/query'
import { param, sql, trusted } from '../clickhouse/sql'
import { chTimeToIso } from '../clickhouse/time'
import type { RunRef } from '../loom/identity'
import { runScope } from '../loom/scope'
import { tableNames, source } from '../loom/tables'
import { toTurn, TURN_COLUMNS, TURN_JSON, turnRowSchema, type Turn } from '../tables/conversation-turns'
import { TURNS_CAP, keepCap, overCap, type ListCut } from './list-cut'

export type Conversation = { conversationId: string; title: string; createdAt: string; userId: string; sessionId: string; turns: Turn[] }

const convSchema = z.object({
  conversation_id: z.string(),
  latest_title: z.string(),
  first_at: z.string().transform(chTimeToIso),
  any_user: z.string(),
  any_session: z.string(),
})

/** The run's conversations (one row each: latest title, first turn time, an identity), oldest first. */
function runConversationRows(run: RunRef, signal?: AbortSignal) {
  return selectRows(
    sql`SELECT conversation_id, argMax(title, created_at) AS latest_title, toString(min(created_at)) AS first_at,
        any(user_id) AS any_user, any(session_id) AS any_session
     FROM ${trusted(source(tableNames().conversations))} WHERE ${runScope(run)}
     GROUP BY conversation_id ORDER BY first_at`,
    convSchema,
    { signal },
  )
}

/** Transcripts bound to the run; turns ordered by turn_index whatever order they were inserted in. */
export async function runConversations(run: RunRef, signal?: AbortSignal, cap = TURNS_CAP): Promise<{ conversations: Conversation[]; cuts: ListCut[] }> {
  const t = tableNames()
  const [convs, turnRows] = await Promise.all([
    runConversationRows(run, signal),
    selectRows(
      sql`SELECT ${trusted(TURN_COLUMNS)}
       FROM ${trusted(source(t.turns))} WHERE ${runScope(run)}
       ORDER BY conversation_id, turn_index
       LIMIT ${param('cap', 'UInt32', overCap(cap))}`,
      turnRowSchema,
      { signal },
    ),
  ])
  const cuts: ListCut[] = []
  const turns = keepCap(turnRows, cap, 'turns', cuts)
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
    c.turns.push(toTurn(tr))
  }
  return { conversations: [...byConv.values()], cuts }
}

const turnGroupSchema = z.object({
  conversation_id: z.string(),
  first_turn_at: z.string().transform(chTimeToIso),
  turns_json: z.string(),
})

/**
 * runConversations as JSON text: ClickHouse writes each conversation's turns as one JSON array,
 * and Node only splices them into the answer. A 10,000-turn run is megabytes of content that
 * would otherwise be parsed, validated and serialized again, turn by turn.
 */
export async function runConversationsJsonText(run: RunRef, signal?: AbortSignal): Promise<{ text: string; empty: boolean }> {
  const t = tableNames()
  const [convs, groups, counted] = await Promise.all([
    runConversationRows(run, signal),
    selectRows(
      sql`SELECT conversation_id, toString(argMin(created_at, turn_index)) AS first_turn_at,
          toJSONString(arraySort(x -> tupleElement(x, 'turnIndex'), groupArray(${trusted(TURN_JSON)}))) AS turns_json
       FROM (
         SELECT conversation_id, turn_index, role, content, tool_name, input_tokens, output_tokens, cost_usd, created_at
         FROM ${trusted(source(t.turns))} WHERE ${runScope(run)}
         ORDER BY conversation_id, turn_index
         LIMIT ${param('cap', 'UInt32', TURNS_CAP)}
       )
       GROUP BY conversation_id ORDER BY conversation_id
       SETTINGS output_format_json_quote_64bit_integers = 1, output_format_json_named_tuples_as_objects = 1`,
      turnGroupSchema,
      { signal },
    ),
    selectRows(
      sql`SELECT count() > ${param('cap', 'UInt32', TURNS_CAP)} AS over FROM ${trusted(source(t.turns))} WHERE ${runScope(run)}`,
      z.object({ over: z.coerce.number() }),
      { signal },
    ),
  ])
  const cuts: ListCut[] = counted[0]?.over ? [{ list: 'turns', limit: TURNS_CAP }] : []
  const turnsOf = new Map(groups.map((g) => [g.conversation_id, g]))
  const head = (c: Omit<Conversation, 'turns'>) => JSON.stringify(c).slice(0, -1)
  const parts: string[] = []
  for (const c of convs) {
    const turns = turnsOf.get(c.conversation_id)?.turns_json ?? '[]'
    turnsOf.delete(c.conversation_id)
    parts.push(`${head({ conversationId: c.conversation_id, title: c.latest_title, createdAt: c.first_at, userId: c.any_user, sessionId: c.any_session })},"turns":${turns}}`)
  }
  // Turns whose conversation row is missing still belong to the run.
  for (const g of turnsOf.values()) {
    parts.push(`${head({ conversationId: g.conversation_id, title: '', createdAt: g.first_turn_at, userId: '', sessionId: '' })},"turns":${g.turns_json}}`)
  }
  return { text: `{"conversations":[${parts.join(',')}],"cuts":${JSON.stringify(cuts)}}`, empty: parts.length === 0 }
}
