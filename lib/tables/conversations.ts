import { columns, DATETIME, engine, IDENTITY_COLUMNS, RUN_ID_BLOOM, type LoomTableDeclaration } from './declaration'

export const conversationsTable = {
  key: 'conversations',
  contractName: 'conversations',
  group: 'loom',
  purpose: 'Conversations bound to a run (title, creation time).',
  whenMissing: 'warning',
  disables: 'Conversation tab: transcripts lose their titles and cannot be listed',
  columns: [
    ...IDENTITY_COLUMNS,
    ...columns(`
      conversation_id String
      run_id String
      title String
      created_at ${DATETIME}`),
  ],
  engine: engine('ReplacingMergeTree', 'created_at'),
  sortingKey: ['org', 'namespace', 'agent', 'conversation_id'],
  skipIndexes: [RUN_ID_BLOOM],
} satisfies LoomTableDeclaration
