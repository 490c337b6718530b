import { principalOf } from '@/lib/auth/current'
import { getConfig } from '@/lib/config'
import { route } from '@/lib/http/handler'

export const dynamic = 'force-dynamic'

/** Who the browser is, and what the console lets them do (the UI hides what they cannot). */
export const GET = route(
  null,
  async (req) => {
    const config = getConfig()
    const p = await principalOf(req)
    return {
      user: p ? { name: p.name, role: p.role } : null,
      authRequired: config.users.length > 0,
      canWrite: !!p && p.role === 'operator' && !config.readOnly,
      readOnly: config.readOnly,
    }
  },
  { public: true },
)
