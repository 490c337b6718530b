import { meOf } from '@/lib/auth/me'
import { endpoints } from '@/lib/endpoints/api'
import { serve } from '@/lib/http/serve'

export const dynamic = 'force-dynamic'

/** Who the browser is, and what the console lets them do (the UI hides what they cannot). */
export const GET = serve(endpoints.me, (_, req) => meOf(req))
