import { endpoints } from '@/lib/endpoints/api'
import { serve } from '@/lib/http/serve'
import { checkWebhook } from '@/lib/views/schema'
import { createView, listViews } from '@/lib/views/store'

export const dynamic = 'force-dynamic'

/** The caller's own saved views and the shared ones, by name. */
export const GET = serve(endpoints.views, async ({ who }, req) => ({ views: await listViews(who, req.signal) }))

/** Saves a filter of the runs list; shared views and alerts need the operator role. */
export const POST = serve(endpoints.createView, async ({ body, who }, req) => {
  checkWebhook(body.alert)
  return { view: await createView(body, who, req.signal) }
})
