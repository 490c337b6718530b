import { dehydrate, HydrationBoundary, QueryClient, type QueryKey } from '@tanstack/react-query'
import type { ReactNode } from 'react'
import { RUN_TAB_QUERY, type RunTab } from '@/lib/api-client/run-tabs'
import type { RunCounts } from '@/lib/api/types'
import type { RunRef } from '@/lib/loom/identity'
import { runAudit } from '@/lib/queries/audit'
import { runBlobs } from '@/lib/queries/context-blobs'
import { runConversations } from '@/lib/queries/conversations'
import { runMemories } from '@/lib/queries/memory'
import { runSearches } from '@/lib/queries/search-trace'
import { runTimeline } from '@/lib/queries/timeline'
import { runBlocks, runBlockSummaries } from '@/lib/queries/working-memory'

/** What each tab's route answers, read by the same query modules the route calls. */
const READ: Record<RunTab, (run: RunRef) => Promise<unknown>> = {
  checkpoint: async (run) => ({ blocks: await runBlockSummaries(run) }),
  blocks: async (run) => ({ blocks: await runBlocks(run) }),
  timeline: (run) => runTimeline(run),
  conversation: (run) => runConversations(run),
  memories: (run) => runMemories(run),
  searches: (run) => runSearches(run),
  blobs: (run) => runBlobs(run),
  audit: (run) => runAudit(run),
}

/**
 * Past these sizes the data would make the HTML megabytes long: the tab loads it from its route
 * after the page shows, as it would without server rendering.
 */
const TOO_BIG: Partial<Record<RunTab, (c: RunCounts) => boolean>> = {
  checkpoint: (c) => c.blocks > 3_000,
  blocks: (c) => c.blocks > 500,
  conversation: (c) => c.turns > 1_500,
  // About one event per version, turn, memory, search and blob.
  timeline: (c) => c.versions + c.turns + c.memories + c.searches + c.blobs > 3_000,
}

export function inlinesTabData(tab: RunTab, counts: RunCounts | undefined): boolean {
  return !!counts && !TOO_BIG[tab]?.(counts)
}

/**
 * Reads the open tab's first data on the server into the query key the tab's client query uses,
 * so the tab renders in the HTML and the client takes over without asking again. A failure is
 * left to the client, which asks the route and shows the error with a retry.
 */
export async function OpenTabData({ run, tab, children }: { run: RunRef; tab: RunTab; children: ReactNode }) {
  const queryClient = new QueryClient()
  try {
    // The key is the client query's own; the data is what its route answers.
    const key: QueryKey = RUN_TAB_QUERY[tab](run).queryKey
    queryClient.setQueryData(key, await READ[tab](run))
  } catch {
    // The client's own request reports it.
  }
  return <HydrationBoundary state={dehydrate(queryClient)}>{children}</HydrationBoundary>
}
