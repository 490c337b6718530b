import { columns, DATETIME, engine, type TableDeclaration } from './declaration'

/** What setup changed and when (each `db:init`, and the embedded engine's first start), for "what changed" views. */
export const setupLogTable = {
  key: 'setupLog',
  group: 'dashboard',
  purpose:
    'One row per setup run (db:init, the first start of the embedded engine): who ran it and what it created or upgraded.',
  whenMissing: 'warning',
  disables: 'Setup changes in the "what changed" events (GET /api/events) and on the runs charts',
  columns: columns(`
    at ${DATETIME}
    actor String
    command LowCardinality(String)
    summary String`),
  engine: engine('MergeTree'),
  sortingKey: ['at'],
  skipIndexes: [],
} satisfies TableDeclaration
