import { dehydrate, HydrationBoundary, QueryClient } from '@tanstack/react-query'
import type { Metadata } from 'next'
import { notFound } from 'next/navigation'
import { Suspense } from 'react'
import { RunView } from '@/components/run/run-view'
import { runKeys } from '@/lib/api-client/keys'
import { runPathSchema } from '@/lib/api/schemas'
import { AppError } from '@/lib/errors'
import type { RunRef } from '@/lib/loom/identity'
import { getRunDetail } from '@/lib/queries/run-detail'
import { ensureReady } from '@/lib/server/ready'

type Params = { org: string; namespace: string; agent: string; runId: string }

// Page params arrive still percent-encoded (route-handler params arrive decoded).
function decode(segment: string): string {
  try {
    return decodeURIComponent(segment)
  } catch {
    return segment
  }
}

async function runFrom(params: Promise<Params>): Promise<RunRef> {
  const p = await params
  return { org: decode(p.org), namespace: decode(p.namespace), agent: decode(p.agent), runId: decode(p.runId) }
}

export async function generateMetadata({ params }: { params: Promise<Params> }): Promise<Metadata> {
  const p = await runFrom(params)
  return { title: `${p.runId} · ${p.agent}` }
}

/**
 * The run's header data is read on the server and handed to the client cache, so the HTML
 * already shows the goal and status and the client does not ask again. An unknown run answers
 * 404. Anything else (an id the API refuses, ClickHouse away) is left to the client, which asks
 * the API and shows its error, naming the field, with a retry.
 */
export default async function RunPage({ params }: { params: Promise<Params> }) {
  const run = await runFrom(params)
  const queryClient = new QueryClient()
  if (runPathSchema.safeParse(run).success) {
    try {
      await ensureReady()
      queryClient.setQueryData(runKeys.detail(run), await getRunDetail(run))
    } catch (err) {
      if (err instanceof AppError && err.code === 'not_found') notFound()
    }
  }
  return (
    <HydrationBoundary state={dehydrate(queryClient)}>
      <Suspense fallback={<p className="muted">Loading run…</p>}>
        <RunView runRef={run} />
      </Suspense>
    </HydrationBoundary>
  )
}
