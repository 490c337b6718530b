import { columns, DATETIME, engine, type TableDeclaration } from './declaration'

/** Saved filters of the runs list (private or shared), with an optional alert. One row per change. */
export const savedViewsTable = {
  key: 'savedViews',
  group: 'dashboard',
  purpose:
    'Named filters of the runs list, private to their owner or shared, each with an optional alert (webhook, threshold).',
  whenMissing: 'warning',
  disables: 'Saved views and their alerts; `npm run db:init` creates it',
  columns: columns(`
    id String
    owner String
    name String
    filter String
    shared UInt8
    alert String
    created_at ${DATETIME}
    updated_at ${DATETIME}
    deleted UInt8`),
  engine: engine('ReplacingMergeTree', 'updated_at'),
  sortingKey: ['id'],
  skipIndexes: [],
} satisfies TableDeclaration

/** Every alert delivery attempt (and test send) of a saved view. */
export const alertDeliveriesTable = {
  key: 'alertDeliveries',
  group: 'dashboard',
  purpose:
    'One row per alert delivery attempt of a saved view: when, the HTTP status, how many runs matched and which.',
  whenMissing: 'warning',
  disables: 'Alert deliveries are neither sent nor listed; `npm run db:init` creates it',
  columns: columns(`
    view_id String
    at ${DATETIME}
    kind LowCardinality(String)
    status UInt16
    ok UInt8
    count UInt32
    run_keys Array(String)
    error String`),
  engine: engine('MergeTree'),
  sortingKey: ['view_id', 'at'],
  skipIndexes: [],
  ttl: 'toDateTime(at) + INTERVAL 90 DAY',
} satisfies TableDeclaration
