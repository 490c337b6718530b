import { meOf } from '@/lib/auth/me'
import { route } from '@/lib/http/handler'

export const dynamic = 'force-dynamic'

/** Who the browser is, and what the console lets them do (the UI hides what they cannot). */
export const GET = route(null, (req) => meOf(req), { public: true })
