import { dehydrate, HydrationBoundary, QueryClient } from '@tanstack/react-query'
import type { Metadata } from 'next'
import { notFound } from 'next/navigation'
import { Suspense } from 'react'
import { RUN_TABS, type RunTab } from '@/components/data/run-queries'
import { RunView } from '@/components/run/run-view'
import { runKeys } from '@/lib/api-client/keys'
import { runPathSchema } from '@/lib/api/schemas'
import type { RunDetail } from '@/lib/api/types'
import { AppError } from '@/lib/errors'
import type { RunRef } from '@/lib/loom/identity'
import { getRunDetail } from '@/lib/queries/run-detail'
import { ensureReady } from '@/lib/server/ready'
import { inlinesTabData, OpenTabData } from './_components/open-tab-data'

type Params = { org: string; namespace: string; agent: string; runId: string }
type SearchParams = Record<string, string | string[] | undefined>

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

/** The tab the URL opens; an unknown value opens the default, as the client's parser does. */
async function tabFrom(searchParams: Promise<SearchParams>): Promise<RunTab> {
  const raw = (await searchParams).tab
  const value = Array.isArray(raw) ? raw[0] : raw
  return RUN_TABS.find((t) => t === value) ?? 'checkpoint'
}

export async function generateMetadata({ params }: { params: Promise<Params> }): Promise<Metadata> {
  const p = await runFrom(params)
  return { title: `${p.runId} · ${p.agent}` }
}

/**
 * The run's header data is read on the server and handed to the client cache, so the HTML
 * already shows the goal and status and the client does not ask again; the open tab's first
 * data follows in the same response, streamed behind a Suspense boundary so the header does not
 * wait for it. An unknown run answers 404. Anything else (an id the API refuses, ClickHouse away)
 * is left to the client, which asks the API and shows its error, naming the field, with a retry.
 */
export default async function RunPage({ params, searchParams }: { params: Promise<Params>; searchParams: Promise<SearchParams> }) {
  const [run, tab] = await Promise.all([runFrom(params), tabFrom(searchParams)])
  const queryClient = new QueryClient()
  let detail: RunDetail | undefined
  if (runPathSchema.safeParse(run).success) {
    try {
      await ensureReady()
      detail = await getRunDetail(run)
      queryClient.setQueryData(runKeys.detail(run), detail)
    } catch (err) {
      if (err instanceof AppError && err.code === 'not_found') notFound()
    }
  }
  return (
    <HydrationBoundary state={dehydrate(queryClient)}>
      {inlinesTabData(tab, detail?.counts) ? (
        // Until the tab's data streams in, the header shows with the tab's loading state.
        <Suspense fallback={<RunView runRef={run} pendingTab />}>
          <OpenTabData run={run} tab={tab}>
            <RunView runRef={run} />
          </OpenTabData>
        </Suspense>
      ) : (
        <Suspense fallback={<p className="muted">Loading run…</p>}>
          <RunView runRef={run} />
        </Suspense>
      )}
    </HydrationBoundary>
  )
}
