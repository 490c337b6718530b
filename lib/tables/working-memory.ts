import { columns, DATETIME, engine, IDENTITY_COLUMNS, type LoomTableDeclaration } from './declaration'

/** Blocks and checkpoints; the row schema and mapper stay with the writes in lib/loom/working-memory.ts. */
export const workingMemoryTable = {
  key: 'workingMemory',
  contractName: 'working_memory',
  group: 'loom',
  purpose: 'Blocks and checkpoints: one row per version of each block.',
  whenMissing: 'problem',
  disables: 'Checkpoint tab, editing, the resume explainer and checkpoint-only runs: the console has nothing to show',
  columns: [
    ...IDENTITY_COLUMNS,
    ...columns(`
      run_id String
      block_key String
      content String
      char_limit UInt32 DEFAULT 4096
      version UInt64
      is_deleted UInt8 DEFAULT 0
      actor String
      source_trace String
      updated_at ${DATETIME}`),
  ],
  engine: engine('ReplacingMergeTree', 'version'),
  sortingKey: ['org', 'namespace', 'agent', 'user_id', 'session_id', 'run_id', 'block_key'],
  skipIndexes: [],
} satisfies LoomTableDeclaration
