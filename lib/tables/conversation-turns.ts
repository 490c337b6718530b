import { z } from 'zod'
import { chTimeToIso, isoTimeSql } from './time'
import { columns, DATETIME, engine, IDENTITY_COLUMNS, RUN_ID_BLOOM, type LoomTableDeclaration } from './declaration'
import type { Turn } from '../endpoints/story'
export type { Turn } from '../endpoints/story'

export const conversationTurnsTable = {
  key: 'turns',
  contractName: 'conversation_turns',
  group: 'loom',
  purpose: 'Every turn of every conversation (role, content, tool calls, tokens).',
  whenMissing: 'warning',
  disables: 'Conversation tab and the turn events of the Timeline',
  columns: [
    ...IDENTITY_COLUMNS,
    ...columns(`
      conversation_id String
      run_id String
      turn_index UInt32
      role LowCardinality(String)
      content String
      tool_name String
      input_tokens UInt64
      output_tokens UInt64
      cost_usd Float64
      created_at ${DATETIME}`),
  ],
  engine: engine('MergeTree'),
  sortingKey: ['org', 'namespace', 'agent', 'conversation_id', 'turn_index'],
  skipIndexes: [RUN_ID_BLOOM],
} satisfies LoomTableDeclaration

/** The SELECT list `turnRowSchema` reads. */
export const TURN_COLUMNS =
  'conversation_id, turn_index, role, content, tool_name, input_tokens, output_tokens, cost_usd, toString(created_at) AS created_at'

export const turnRowSchema = z.object({
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

export function toTurn(row: z.infer<typeof turnRowSchema>): Turn {
  return {
    turnIndex: row.turn_index,
    role: row.role,
    content: row.content,
    toolName: row.tool_name,
    inputTokens: row.input_tokens,
    outputTokens: row.output_tokens,
    costUsd: row.cost_usd,
    createdAt: row.created_at,
  }
}

/**
 * The same turn built by ClickHouse as a named tuple with the API's field names and types, for
 * answers written as JSON text without parsing each turn in Node.
 */
export const TURN_JSON = `CAST((turn_index, role, content, tool_name, toFloat64(input_tokens), toFloat64(output_tokens), toFloat64(cost_usd),
    ${isoTimeSql('created_at')}),
  'Tuple(turnIndex UInt32, role String, content String, toolName String, inputTokens Float64, outputTokens Float64, costUsd Float64, createdAt String)')`
