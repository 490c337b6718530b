import { dehydrate, HydrationBoundary, QueryClient, type QueryKey } from '@tanstack/react-query'
import type { ReactNode } from 'react'
import {
  CONVERSATION_PREVIEW_TURNS,
  RUN_TAB_QUERY,
  runTimelinePreviewQueryOptions,
  TIMELINE_PREVIEW_EVENTS,
} from '@/lib/api-client/run-tabs'
import { runKeys } from '@/lib/api-client/keys'
import type { RunTab } from '@/lib/api-client/tab-names'
import type { RunCounts } from '@/lib/api/types'
import { requirePageViewer } from '@/app/_components/page-viewer'
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

/** Where the whole is too big, the first part some tabs show while the rest loads: its query key and its read. */
const PREVIEW: Partial<Record<RunTab, { key: (run: RunRef) => QueryKey; read: (run: RunRef) => Promise<unknown> }>> = {
  timeline: {
    key: (run) => runTimelinePreviewQueryOptions(run).queryKey,
    read: (run) => runTimeline(run, TIMELINE_PREVIEW_EVENTS),
  },
  conversation: {
    key: (run) => runKeys.conversationsPreview(run),
    read: async (run) => {
      const part = await runConversations(run, undefined, CONVERSATION_PREVIEW_TURNS)
      // Conversations whose turns all come later are left for the whole answer.
      return { ...part, conversations: part.conversations.filter((c) => c.turns.length > 0) }
    },
  },
}

/** What of the open tab's data the page reads on the server: all of it, its first part, or nothing. */
export type TabPart = 'whole' | 'preview' | 'none'

export function tabDataPart(tab: RunTab, counts: RunCounts | undefined): TabPart {
  if (!counts) return 'none'
  if (!TOO_BIG[tab]?.(counts)) return 'whole'
  return PREVIEW[tab] ? 'preview' : 'none'
}

/**
 * Reads the open tab's first data on the server into the query key the tab's client query uses,
 * so the tab renders in the HTML and the client takes over without asking again. A failure is
 * left to the client, which asks the route and shows the error with a retry.
 */
export async function OpenTabData({
  run,
  tab,
  part,
  children,
}: {
  run: RunRef
  tab: RunTab
  part: Exclude<TabPart, 'none'>
  children: ReactNode
}) {
  await requirePageViewer()
  const queryClient = new QueryClient()
  const preview = part === 'preview' ? PREVIEW[tab] : undefined
  try {
    // The key is the client query's own; the data is what its route answers.
    const key: QueryKey = preview ? preview.key(run) : RUN_TAB_QUERY[tab](run).queryKey
    queryClient.setQueryData(key, await (preview ? preview.read(run) : READ[tab](run)))
  } catch {
    // The client's own request reports it.
  }
  return <HydrationBoundary state={dehydrate(queryClient)}>{children}</HydrationBoundary>
}
