import { getBatch } from '@/lib/batch/store'
import { endpoints } from '@/lib/endpoints/api'
import { serve } from '@/lib/http/serve'

export const dynamic = 'force-dynamic'

/** One kept batch with its items: the versions each read and wrote, and a hash of what it wrote. */
export const GET = serve(endpoints.keptBatch, ({ params }, req) => getBatch(params.batchId.toLowerCase(), req.signal))
