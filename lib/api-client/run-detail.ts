import { queryOptions } from '@tanstack/react-query'
import type { BlockDetail, BlockSummariesResponse, BlocksResponse, ReplayPreview, RunDetail } from '../api/types'
import type { RunRef } from '../loom/identity'
import { links } from '../links'
import { fetchJson } from './fetch-json'
import { runKeys } from './keys'

export function runDetailQueryOptions(run: RunRef) {
  return queryOptions({
    queryKey: runKeys.detail(run),
    queryFn: ({ signal }) => fetchJson<RunDetail>(links.api.run(run), { signal }),
    // While the run cannot be loaded because ClickHouse is away (5xx, no answer), ask again every
    // 10 s: the page heals by itself. A 4xx (unknown run, bad id) will not change by waiting.
    refetchInterval: (query) => {
      const status = (query.state.error as { status?: number } | null)?.status
      return query.state.status === 'error' && !(status && status < 500) ? 10_000 : false
    },
  })
}

export function runBlocksQueryOptions(run: RunRef) {
  return queryOptions({
    queryKey: runKeys.blocks(run),
    queryFn: ({ signal }) => fetchJson<BlocksResponse>(links.api.blocks(run), { signal }),
  })
}

/** Every block without its content: names, versions, sizes and writers, for the Checkpoint tab's picker. */
export function runBlockSummariesQueryOptions(run: RunRef) {
  return queryOptions({
    queryKey: runKeys.blockSummaries(run),
    queryFn: ({ signal }) => fetchJson<BlockSummariesResponse>(links.api.blocks(run, { content: 'none' }), { signal }),
  })
}

export type BlockSelector = { blockKey: string; userId: string; sessionId: string }

export function blockDetailQueryOptions(run: RunRef, sel: BlockSelector) {
  return queryOptions({
    queryKey: runKeys.block(run, sel.blockKey, sel.userId, sel.sessionId),
    queryFn: ({ signal }) => fetchJson<BlockDetail>(links.api.block(run, sel.blockKey, sel.userId, sel.sessionId), { signal }),
  })
}

/** What going back to `toVersion` (null: a clear) makes the agent redo; asked when a write dialog opens. */
export function replayQueryOptions(run: RunRef, sel: BlockSelector, toVersion: string | null) {
  return queryOptions({
    queryKey: runKeys.replay(run, sel.blockKey, sel.userId, sel.sessionId, toVersion),
    queryFn: ({ signal }) => fetchJson<ReplayPreview>(links.api.replay(run, sel.blockKey, sel.userId, sel.sessionId, toVersion), { signal }),
  })
}
