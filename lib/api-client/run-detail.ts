import type { BlockSummariesResponse, BlocksResponse } from '../api/types'
import { endpoints } from '../endpoints/api'
import type { RunRef } from '../loom/identity'
import { endpointQuery } from './endpoint'

export function runDetailQueryOptions(run: RunRef) {
  return endpointQuery(
    endpoints.run,
    { params: run },
    {
      // While the run cannot be loaded because ClickHouse is away (5xx, no answer), ask again every
      // 10 s: the page heals by itself. A 4xx (unknown run, bad id) will not change by waiting.
      refetchInterval: (query) => {
        const status = (query.state.error as { status?: number } | null)?.status
        return query.state.status === 'error' && !(status && status < 500) ? 10_000 : false
      },
    },
  )
}

export function runBlocksQueryOptions(run: RunRef) {
  return endpointQuery<typeof endpoints.blocks, BlocksResponse>(endpoints.blocks, { params: run })
}

/** Every block without its content: names, versions, sizes and writers, for the Checkpoint tab's picker. */
export function runBlockSummariesQueryOptions(run: RunRef) {
  return endpointQuery<typeof endpoints.blocks, BlockSummariesResponse>(endpoints.blocks, {
    params: run,
    query: { content: 'none' },
  })
}

export type BlockSelector = { blockKey: string; userId: string; sessionId: string }

export function blockDetailQueryOptions(run: RunRef, sel: BlockSelector) {
  return endpointQuery(endpoints.block, {
    params: { ...run, blockKey: sel.blockKey },
    query: { userId: sel.userId, sessionId: sel.sessionId },
  })
}

/** What going back to `toVersion` (null: a clear) makes the agent redo; asked when a write dialog opens. */
export function replayQueryOptions(run: RunRef, sel: BlockSelector, toVersion: string | null) {
  return endpointQuery(endpoints.replay, {
    params: { ...run, blockKey: sel.blockKey },
    query: { userId: sel.userId, sessionId: sel.sessionId, ...(toVersion === null ? {} : { toVersion }) },
  })
}
