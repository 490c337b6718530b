import { endpoints } from '@/lib/endpoints/api'
import { serve } from '@/lib/http/serve'
import { deliveriesOf, getView } from '@/lib/views/store'

export const dynamic = 'force-dynamic'

/** The view's alert deliveries (and test sends), newest first. */
export const GET = serve(endpoints.viewDeliveries, async ({ params, who }, req) => {
  const view = await getView(params.id.toLowerCase(), who, req.signal)
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
