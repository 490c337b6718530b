import { dehydrate, HydrationBoundary, QueryClient } from '@tanstack/react-query'
import type { Metadata } from 'next'
import { RunsView, type StreamedFlags } from '@/components/runs/runs-view'
import { runsListQueryOptions } from '@/lib/api-client/runs'
import { runsQuerySchema } from '@/lib/api/schemas'
import { flagsOfPage, listRuns } from '@/lib/queries/runs'
import { runsFilters, runsListParams, runsSearch } from '@/lib/runs-search'
import { cachedRead } from '@/lib/server/read-cache'
import { requirePageViewer } from '@/app/_components/page-viewer'
import { ensureReady } from '@/lib/server/ready'
import { redirect } from 'next/navigation'
import type { Principal } from '@/lib/auth/current'
import { links } from '@/lib/links'
import type { RunsFilters } from '@/lib/runs-search'
import { viewIdParamsSchema } from '@/lib/views/schema'
import { getView } from '@/lib/views/store'
import type { SavedView } from '@/lib/views/types'

/** The saved view, if it exists and this viewer may see it (else the plain list opens, and says so). */
async function savedViewFor(id: string, viewer: Principal): Promise<SavedView | null> {
  if (!viewIdParamsSchema.safeParse({ id }).success) return null
  try {
    await ensureReady()
    return await getView(id.toLowerCase(), viewer)
  } catch {
    return null
  }
}

export const metadata: Metadata = { title: { absolute: 'Runs · Loom Runs' } }

type SearchParams = Record<string, string | string[] | undefined>

const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v) ?? null
const many = (v: string | string[] | undefined) => (v === undefined ? [] : Array.isArray(v) ? v : [v])

/**
 * The first page of runs, as filtered by the URL, is read on the server with the same query
 * module and cache key the API route uses, and handed to the client cache under the key the
 * client asks for: the HTML holds the rows and the client does not fetch them again. A URL the
 * API would refuse (a bad date, a foreign cursor), or ClickHouse away, is left to the client,
 * which asks the API and shows its error with a retry. No loading state or Suspense boundary
 * wraps the list: its rows are in the first HTML the browser paints, where a streamed boundary
 * would be revealed only later (React holds streamed reveals back briefly to batch them).
 * The rows' flags are the slowest part of a page (they look at working memory across identities)
 * and follow as a promise the table resolves row by row, so the rows do not wait for them.
 */
export default async function RunsPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const viewer = await requirePageViewer()
  const sp = await searchParams
  // `/?view={id}` opens a saved view: its filter in the URL (kept with the view's id), so the page is the same link-able list.
  const viewId = one(sp.view)
  const filterKeys = ['org', 'namespace', 'agent', 'status', 'q', 'from', 'to', 'flag', 'cursor']
  if (viewId && !filterKeys.some((k) => sp[k] !== undefined)) {
    const view = await savedViewFor(viewId, viewer)
    if (view) {
      const list = links.runsList(view.filter as RunsFilters)
      redirect(`${list}${list.includes('?') ? '&' : '?'}view=${view.id}`)
    }
  }
  const filters = runsFilters({
    org: one(sp.org),
    namespace: one(sp.namespace),
    agent: one(sp.agent),
    status: one(sp.status),
    q: one(sp.q),
    from: one(sp.from),
    to: one(sp.to),
    flag: many(sp.flag),
  })
  const params = runsListParams(filters, one(sp.cursor))
  const queryClient = new QueryClient()
  let streamed: StreamedFlags | null = null
  const search = runsSearch(params)
  const parsed = runsQuerySchema.safeParse({
    ...Object.fromEntries(search),
    ...(filters.flag ? { flag: filters.flag } : {}),
  })
  if (parsed.success) {
    try {
      await ensureReady()
      const { cursor, limit, ...filter } = parsed.data
      const size = limit ?? 50
      const page = await cachedRead('runs.list', { filter, cursor, size, flags: false }, undefined, (signal) =>
        listRuns({ filter, cursor, limit: size, signal, flags: false }),
      )
      const queryKey = runsListQueryOptions(params).queryKey
      if (page.runs.length > 0) {
        queryClient.setQueryData(queryKey, { ...page, flagsPending: true })
        // Never rejects: on a failure the table asks the API for the whole page again.
        streamed = { queryKey, flags: flagsOfPage(filter, page.runs).catch(() => null) }
      } else {
        queryClient.setQueryData(queryKey, page)
      }
    } catch {
      // The client asks again and shows the error.
    }
  }
  return (
    <HydrationBoundary state={dehydrate(queryClient)}>
      <RunsView streamedFlags={streamed} />
    </HydrationBoundary>
  )
}
