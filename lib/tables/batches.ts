import { columns, DATETIME, engine, type TableDeclaration } from './declaration'

/**
 * The console's own record of every batch (and every undo of one): the request, who and why, and
 * each item with the versions it wrote, so a batch can be listed, inspected and taken back.
 */
export const batchesTable = {
  key: 'batches',
  group: 'dashboard',
  purpose:
    'One row per batch clear, restore or undo: the request, actor, reason and each item with the versions it wrote and a hash of the content.',
  whenMissing: 'warning',
  disables: 'Recent batches and their undo; batch writes are refused until `npm run db:init` creates it',
  columns: columns(`
    batch_id String
    at ${DATETIME}
    actor String
    action LowCardinality(String)
    block_key String
    filter String
    reason String
    undoes String DEFAULT ''
    done UInt32
    conflict UInt32
    skipped UInt32
    error UInt32
    items String`),
  engine: engine('ReplacingMergeTree', 'at'),
  sortingKey: ['batch_id'],
  skipIndexes: [],
} satisfies TableDeclaration
