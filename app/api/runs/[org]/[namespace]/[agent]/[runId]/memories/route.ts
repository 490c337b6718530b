import { endpoints } from '@/lib/endpoints/api'
import { runScopedGet } from '@/lib/http/run-scoped-route'
import { runMemories } from '@/lib/queries/memory'

export const dynamic = 'force-dynamic'

export const GET = runScopedGet(endpoints.memories, runMemories, (v) => v.written.length === 0 && v.used.length === 0)
