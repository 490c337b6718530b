import { endpoints } from '@/lib/endpoints/api'
import { serve } from '@/lib/http/serve'
import { getHealth } from '@/lib/queries/health'

export const dynamic = 'force-dynamic'

export const GET = serve(endpoints.health, (_, req) => getHealth(req.signal))
