import { requireOperatorWrite } from '@/lib/auth/current'
import { AppError } from '@/lib/errors'
import { route } from '@/lib/http/handler'
import { sendTest } from '@/lib/views/alerts'
import { viewIdParamsSchema } from '@/lib/views/schema'
import { getView } from '@/lib/views/store'

export const dynamic = 'force-dynamic'

/** Sends the view's alert payload to its webhook at once, whatever the threshold; the delivery is listed. */
export const POST = route(viewIdParamsSchema, async (req, { id }) => {
  const who = await requireOperatorWrite(req)
  const view = await getView(id.toLowerCase(), who, req.signal)
  if (!view.alert)
    throw new AppError('invalid', 'alert: this view has no alert to test; set alert.webhook first', {
      details: { field: 'alert' },
    })
  return { delivery: await sendTest(view) }
})
