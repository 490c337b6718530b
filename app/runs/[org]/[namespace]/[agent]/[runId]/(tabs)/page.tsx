import { dehydrate, HydrationBoundary, QueryClient } from '@tanstack/react-query'
import type { Metadata } from 'next'
import { RUN_TABS, type RunTab } from '@/lib/api-client/tab-names'
import { RunView } from '@/components/run/run-view'
import { runDetailQueryOptions } from '@/lib/api-client/run-detail'
import { OpenTabData, tabDataPart } from '../_components/open-tab-data'
import { runDetailForPage, runFrom, type RunParams as Params } from '../_components/run-for-page'

type SearchParams = Record<string, string | string[] | undefined>

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
 * The run's header data and the open tab's first data are read on the server and handed to the
 * client cache, so the HTML already shows the goal, the status and the tab, and the client does
 * not ask again. The tab's data is awaited, not streamed behind a Suspense boundary: React reveals
 * a streamed boundary only after a reveal throttle (~300 ms after the first paint), which cost the
 * huge run's timeline more than its read takes (rows at 830-1,000 ms streamed, 530-700 awaited, at
 * 1M runs). The layout has already answered 404 for an unknown run. Anything else (an id the API
 * refuses, ClickHouse away) is left to the client, which asks the API and shows its error, naming
 * the field, with a retry.
 */
export default async function RunPage({
  params,
  searchParams,
}: {
  params: Promise<Params>
  searchParams: Promise<SearchParams>
}) {
  const [run, tab] = await Promise.all([runFrom(params), tabFrom(searchParams)])
  const queryClient = new QueryClient()
  const detail = await runDetailForPage(run.org, run.namespace, run.agent, run.runId)
  if (detail) queryClient.setQueryData(runDetailQueryOptions(run).queryKey, detail)
  const part = tabDataPart(tab, detail?.counts)
  return (
    <HydrationBoundary state={dehydrate(queryClient)}>
      {part !== 'none' ? (
        <OpenTabData run={run} tab={tab} part={part}>
          <RunView runRef={run} />
        </OpenTabData>
      ) : (
        <RunView runRef={run} />
      )}
    </HydrationBoundary>
  )
}
