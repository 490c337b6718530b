import { getConfig } from '../config'

/**
 * Fully qualified table names. Database names come from validated configuration
 * (plain identifiers only), never from request input, so they can be placed in SQL.
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
  history: string
  historyView: string
}

export function tableNames(databases = getConfig().databases): TableNames {
  const { loom, telemetry, runs } = databases
  return {
    workingMemory: `${loom}.working_memory`,
    runs: `${loom}.runs`,
    conversations: `${loom}.conversations`,
    turns: `${loom}.conversation_turns`,
    memory: `${loom}.memory`,
    contextBlobs: `${loom}.context_blobs`,
    searchTrace: `${telemetry}.search_trace_log`,
    audit: `${runs}.audit_log`,
    history: `${runs}.working_memory_history`,
    historyView: `${runs}.working_memory_history_mv`,
  }
}
