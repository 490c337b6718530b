import { columns, DATETIME, engine, IDENTITY_COLUMNS, type TableDeclaration } from './declaration'

/** The dashboard's own audit table: one row per operator action. */
export const auditLogTable = {
  key: 'audit',
  group: 'dashboard',
  purpose: 'One row per operator action (edit, clear, restore): who, why, versions and content before and after.',
  whenMissing: 'warning',
  disables: 'Audit log on the run page and operator events in the Timeline; edits cannot record their audit row',
  columns: [
    ...columns(`
      at ${DATETIME}
      operator String
      action LowCardinality(String)
      reason String`),
    ...IDENTITY_COLUMNS,
    ...columns(`
      run_id String
      block_key String
      before_version UInt64
      after_version UInt64
      before_content String
      after_content String
      request_id String
      batch_id String DEFAULT ''
      restored_version String DEFAULT ''`),
  ],
  engine: engine('MergeTree'),
  sortingKey: ['org', 'namespace', 'agent', 'run_id', 'at'],
  skipIndexes: [],
} satisfies TableDeclaration
