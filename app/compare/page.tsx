import { dehydrate, HydrationBoundary, QueryClient } from '@tanstack/react-query'
import type { Metadata } from 'next'
import { CompareView } from '@/components/compare/compare-view'
import { compareQueryOptions } from '@/lib/api-client/compare'
import { compareQuerySchema } from '@/lib/api/schemas'
import { compareRuns } from '@/lib/queries/compare'
import { ensureReady } from '@/lib/server/ready'
import { requirePageViewer } from '../_components/page-viewer'

type SearchParams = Record<string, string | string[] | undefined>

const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v)

export async function generateMetadata({ searchParams }: { searchParams: Promise<SearchParams> }): Promise<Metadata> {
  const a = one((await searchParams).a)
  const runId = a?.split('/')[3]
  let name = 'runs'
  try {
    if (runId) name = decodeURIComponent(runId)
  } catch {
    // Shown as is in the title only.
  }
  return { title: `Compare ${name}` }
}

/**
 * Two runs side by side. The comparison is read on the server and handed to the client cache, so
 * the first HTML already shows both runs; a bad or unknown run is left to the client, which asks
 * the API and shows its error (naming the field) with a retry.
 */
export default async function ComparePage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  await requirePageViewer()
  const sp = await searchParams
  const a = one(sp.a) ?? ''
  const b = one(sp.b) ?? null
  const queryClient = new QueryClient()
  const parsed = compareQuerySchema.safeParse({ a, ...(b ? { b } : {}) })
  if (parsed.success) {
    try {
      await ensureReady()
      queryClient.setQueryData(compareQueryOptions(a, b).queryKey, await compareRuns(parsed.data.a, parsed.data.b))
    } catch {
      // The client reads it again and shows the error with a retry.
    }
  }
  return (
    <HydrationBoundary state={dehydrate(queryClient)}>
      <CompareView a={a} b={b} />
    </HydrationBoundary>
  )
}
