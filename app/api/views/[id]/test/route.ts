import { endpoints } from '@/lib/endpoints/api'
import { AppError } from '@/lib/errors'
import { serve } from '@/lib/http/serve'
import { sendTest } from '@/lib/views/alerts'
import { getView } from '@/lib/views/store'

export const dynamic = 'force-dynamic'

/** Sends the view's alert payload to its webhook at once, whatever the threshold; the delivery is listed. */
export const POST = serve(endpoints.testView, async ({ params, who }, req) => {
  const view = await getView(params.id.toLowerCase(), who, req.signal)
  if (!view.alert)
    throw new AppError('invalid', 'alert: this view has no alert to test; set alert.webhook first', {
      details: { field: 'alert' },
    })
  return { delivery: await sendTest(view) }
})
