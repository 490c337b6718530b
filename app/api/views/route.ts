import { requireSignedInWrite, requireViewer } from '@/lib/auth/current'
import { readJsonBody } from '@/lib/http/body'
import { route } from '@/lib/http/handler'
import { viewBodySchema } from '@/lib/views/schema'
import { createView, listViews } from '@/lib/views/store'

export const dynamic = 'force-dynamic'

/** The caller's own saved views and the shared ones, by name. */
export const GET = route(null, async (req) => ({ views: await listViews(await requireViewer(req), req.signal) }))

/** Saves a filter of the runs list; shared views and alerts need the operator role. */
export const POST = route(null, async (req) => {
  const who = await requireSignedInWrite(req)
  const body = await readJsonBody(req, viewBodySchema)
  return { view: await createView(body, who, req.signal) }
})
