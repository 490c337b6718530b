import { z } from 'zod'
import { isEmptyJsonArray, JsonText } from '../clickhouse/json-bytes'
import { selectJsonArrayBytes, selectRows } from '../clickhouse/query'
import { param, sql, trusted, type Sql } from '../clickhouse/sql'
import { isoTimeSql } from '../tables/time'
import type { RunRef } from '../loom/identity'
import { runScope } from '../loom/scope'
import { tableNames, source } from '../loom/tables'
import { toTurn, TURN_COLUMNS, TURN_JSON, turnRowSchema } from '../tables/conversation-turns'
import { TURNS_CAP, keepCap, overCap, type ListCut } from './list-cut'
import type { Conversation } from '../endpoints/story'
export type { Conversation } from '../endpoints/story'

const convSchema = z.object({
  conversation_id: z.string(),
  latest_title: z.string(),
  first_at: z.string(),
  any_user: z.string(),
  any_session: z.string(),
})

/** One row per conversation of the run: its latest title, its first time (ISO text), an identity. */
function conversationHeads(run: RunRef): Sql {
  return sql`SELECT conversation_id, argMax(title, created_at) AS latest_title, ${trusted(isoTimeSql('min(created_at)'))} AS first_at,
      any(user_id) AS any_user, any(session_id) AS any_session
    FROM ${trusted(source(tableNames().conversations))} WHERE ${runScope(run)}
    GROUP BY conversation_id`
}

/** The run's conversations, oldest first. */
function runConversationRows(run: RunRef, signal?: AbortSignal) {
  return selectRows(sql`${conversationHeads(run)} ORDER BY first_at`, convSchema, { signal })
}

/** Transcripts bound to the run; turns ordered by turn_index whatever order they were inserted in. */
export async function runConversations(
  run: RunRef,
  signal?: AbortSignal,
  cap = TURNS_CAP,
): Promise<{ conversations: Conversation[]; cuts: ListCut[] }> {
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
      c = {
        conversationId: tr.conversation_id,
        title: '',
        createdAt: tr.created_at,
        userId: '',
        sessionId: '',
        turns: [],
      }
      byConv.set(tr.conversation_id, c)
    }
    c.turns.push(toTurn(tr))
  }
  return { conversations: [...byConv.values()], cuts }
}

/**
 * runConversations as JSON bytes: one statement whose rows are the conversations in the API's
 * shape, turns included, and Node only wraps them. A 10,000-turn run is megabytes of content that
 * would otherwise be parsed, validated and serialized again, turn by turn.
 */
export async function runConversationsJson(
  run: RunRef,
  signal?: AbortSignal,
): Promise<{ json: JsonText; empty: boolean }> {
  const t = tableNames()
  const cap = param('cap', 'UInt32', TURNS_CAP)
  const [conversations, counted] = await Promise.all([
    selectJsonArrayBytes(
      sql`SELECT
          if(c.known, c.conversation_id, g.conversation_id) AS conversationId,
          c.latest_title AS title,
          if(c.known, c.first_at, g.first_turn_at) AS createdAt,
          c.any_user AS userId,
          c.any_session AS sessionId,
          g.turns AS turns
        FROM (SELECT *, true AS known FROM (${conversationHeads(run)})) AS c
        FULL OUTER JOIN (
          SELECT conversation_id, ${trusted(isoTimeSql('argMin(created_at, turn_index)'))} AS first_turn_at,
            arraySort(x -> tupleElement(x, 'turnIndex'), groupArray(${trusted(TURN_JSON)})) AS turns
          FROM (
            SELECT conversation_id, turn_index, role, content, tool_name, input_tokens, output_tokens, cost_usd, created_at
            FROM ${trusted(source(t.turns))} WHERE ${runScope(run)}
            ORDER BY conversation_id, turn_index
            LIMIT ${cap}
          )
          GROUP BY conversation_id
        ) AS g ON c.conversation_id = g.conversation_id
        -- The run's conversations oldest first; then turns whose conversation row is missing.
        ORDER BY c.known DESC, if(c.known, c.first_at, ''), conversationId`,
      { signal },
    ),
    selectRows(
      sql`SELECT count() > ${cap} AS over FROM ${trusted(source(t.turns))} WHERE ${runScope(run)}`,
      z.object({ over: z.coerce.number() }),
      { signal },
    ),
  ])
  const cuts: ListCut[] = counted[0]?.over ? [{ list: 'turns', limit: TURNS_CAP }] : []
  return {
    json: new JsonText('{"conversations":', conversations, `,"cuts":${JSON.stringify(cuts)}}`),
    empty: isEmptyJsonArray(conversations),
  }
}
