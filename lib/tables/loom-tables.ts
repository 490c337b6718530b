import { contextBlobsTable } from './context-blobs'
import { conversationTurnsTable } from './conversation-turns'
import { conversationsTable } from './conversations'
import type { LoomTableDeclaration } from './declaration'
import { memoryTable } from './memory'
import { runsTable } from './runs'
import { searchTraceTable } from './search-trace'
import { workingMemoryTable } from './working-memory'

/** Loom's tables in the data contract's order: created in it, and reported in it by the schema doctor. */
export const LOOM_TABLES: readonly LoomTableDeclaration[] = [
  workingMemoryTable,
  runsTable,
  conversationsTable,
  conversationTurnsTable,
  memoryTable,
  contextBlobsTable,
  searchTraceTable,
]
