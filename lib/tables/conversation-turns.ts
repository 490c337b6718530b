import { columns, DATETIME, engine, IDENTITY_COLUMNS, RUN_ID_BLOOM, type LoomTableDeclaration } from './declaration'

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
