import { requireViewer } from '@/lib/auth/current'
import { route } from '@/lib/http/handler'
import { viewIdParamsSchema } from '@/lib/views/schema'
import { deliveriesOf, getView } from '@/lib/views/store'

export const dynamic = 'force-dynamic'

/** The view's alert deliveries (and test sends), newest first. */
export const GET = route(viewIdParamsSchema, async (req, { id }) => {
  const view = await getView(id.toLowerCase(), await requireViewer(req), req.signal)
  const rows = await deliveriesOf(view.id, 50, req.signal)
  return {
    deliveries: rows.map((d) => ({
      at: d.at,
      kind: d.kind,
      status: d.status,
      ok: d.ok,
      count: d.count,
      ...(d.error ? { error: d.error } : {}),
    })),
  }
})
