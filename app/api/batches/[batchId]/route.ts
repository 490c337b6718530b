import { batchIdParamsSchema } from '@/lib/batch/schema'
import { getBatch } from '@/lib/batch/store'
import { route } from '@/lib/http/handler'

export const dynamic = 'force-dynamic'

/** One kept batch with its items: the versions each read and wrote, and a hash of what it wrote. */
export const GET = route(batchIdParamsSchema, async (req, { batchId }) => getBatch(batchId.toLowerCase(), req.signal))
