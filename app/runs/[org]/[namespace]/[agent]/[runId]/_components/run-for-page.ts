import { notFound } from 'next/navigation'
import { cache } from 'react'
import { runPathSchema } from '@/lib/api/schemas'
import type { RunDetail } from '@/lib/api/types'
import { AppError } from '@/lib/errors'
import type { RunRef } from '@/lib/loom/identity'
import { getRunDetail } from '@/lib/queries/run-detail'
import { requirePageViewer } from '@/app/_components/page-viewer'
import { ensureReady } from '@/lib/server/ready'

export type RunParams = { org: string; namespace: string; agent: string; runId: string }

// Page params arrive still percent-encoded (route-handler params arrive decoded).
function decode(segment: string): string {
  try {
    return decodeURIComponent(segment)
  } catch {
    return segment
  }
}

export async function runFrom(params: Promise<RunParams>): Promise<RunRef> {
  const p = await params
  return { org: decode(p.org), namespace: decode(p.namespace), agent: decode(p.agent), runId: decode(p.runId) }
}

/**
 * The run's detail, read once per request (the layout checks the run exists, the page hands the
 * same answer to the client cache). An unknown run is a 404. Anything else (an id the API refuses,
 * ClickHouse away) answers undefined: the client asks the API and shows its error with a retry.
 */
export const runDetailForPage = cache(
  async (org: string, namespace: string, agent: string, runId: string): Promise<RunDetail | undefined> => {
    await requirePageViewer()
    const run = { org, namespace, agent, runId }
    if (!runPathSchema.safeParse(run).success) return undefined
    try {
      await ensureReady()
      return await getRunDetail(run)
    } catch (err) {
      if (err instanceof AppError && err.code === 'not_found') notFound()
      return undefined
    }
  },
)
