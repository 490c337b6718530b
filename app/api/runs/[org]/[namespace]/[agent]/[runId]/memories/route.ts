import { runScopedGet } from '@/lib/http/run-scoped-route'
import { runMemories } from '@/lib/queries/memory'

export const dynamic = 'force-dynamic'

export const GET = runScopedGet(runMemories, (v) => v.written.length === 0 && v.used.length === 0)
