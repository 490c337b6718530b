/** Table names and keys, in a module that imports nothing, so the catalogue, the mapping and the configuration can all use them. */

/** Contract table name → the key the code uses for it (TableNames). */
export const LOOM_TABLE_KEYS = {
  working_memory: 'workingMemory',
  runs: 'runs',
  conversations: 'conversations',
  conversation_turns: 'turns',
  memory: 'memory',
  context_blobs: 'contextBlobs',
  search_trace_log: 'searchTrace',
} as const

export type LoomTableName = keyof typeof LOOM_TABLE_KEYS
export type LoomTableKey = (typeof LOOM_TABLE_KEYS)[LoomTableName]

/**
 * Fully qualified table names. Database names and mapped table names come from validated
 * configuration (plain identifiers only), never from request input, so they can be placed in SQL.
 * For a mapped Loom table this is the physical table: use it to insert and to check existence, and
 * read it through `source()`, which presents the contract's column names.
 */
export type TableNames = {
  workingMemory: string
  runs: string
  conversations: string
  turns: string
  memory: string
  contextBlobs: string
  searchTrace: string
  audit: string
  revokedSessions: string
  batches: string
  setupLog: string
  savedViews: string
  alertDeliveries: string
  history: string
  historyView: string
}
