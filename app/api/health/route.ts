import { route } from '@/lib/http/handler'
import { getHealth } from '@/lib/queries/health'

export const dynamic = 'force-dynamic'

export const GET = route(null, (req) => getHealth(req.signal), { crossSite: true })
