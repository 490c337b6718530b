import { endpoints } from '@/lib/endpoints/api'
import { serve } from '@/lib/http/serve'
import { checkWebhook } from '@/lib/views/schema'
import { deleteView, getView, updateView } from '@/lib/views/store'

export const dynamic = 'force-dynamic'

export const GET = serve(endpoints.view, async ({ params, who }, req) => ({
  view: await getView(params.id.toLowerCase(), who, req.signal),
}))

/** Renames, refilters, shares or sets the alert of a view: its owner while private, an operator once shared. */
export const PUT = serve(endpoints.updateView, async ({ params, body, who }, req) => {
  checkWebhook(body.alert)
  return { view: await updateView(params.id.toLowerCase(), body, who, req.signal) }
})

export const DELETE = serve(endpoints.deleteView, ({ params, who }, req) =>
  deleteView(params.id.toLowerCase(), who, req.signal),
)
