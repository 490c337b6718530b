import { endpoints } from '@/lib/endpoints/api'
import { runScopedGet } from '@/lib/http/run-scoped-route'
import { runBlobs } from '@/lib/queries/context-blobs'

export const dynamic = 'force-dynamic'

export const GET = runScopedGet(endpoints.blobs, runBlobs, (v) => v.blobs.length === 0 && v.missing.length === 0)
