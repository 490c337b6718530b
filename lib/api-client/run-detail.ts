import type { BlockDetail, BlockSummariesResponse, BlocksResponse, ReplayPreview, RunDetail } from '../api/types'
import type { RunRef } from '../loom/identity'
import { links } from '../links'
import { jsonQuery } from './json-query'
import { runKeys } from './keys'

export function runDetailQueryOptions(run: RunRef) {
  return jsonQuery<RunDetail>(runKeys.detail(run), () => links.api.run(run), {
    // While the run cannot be loaded because ClickHouse is away (5xx, no answer), ask again every
    // 10 s: the page heals by itself. A 4xx (unknown run, bad id) will not change by waiting.
    refetchInterval: (query) => {
      const status = (query.state.error as { status?: number } | null)?.status
      return query.state.status === 'error' && !(status && status < 500) ? 10_000 : false
    },
  })
}

export function runBlocksQueryOptions(run: RunRef) {
  return jsonQuery<BlocksResponse>(runKeys.blocks(run), () => links.api.blocks(run))
}

/** Every block without its content: names, versions, sizes and writers, for the Checkpoint tab's picker. */
export function runBlockSummariesQueryOptions(run: RunRef) {
  return jsonQuery<BlockSummariesResponse>(runKeys.blockSummaries(run), () =>
    links.api.blocks(run, { content: 'none' }),
  )
}

export type BlockSelector = { blockKey: string; userId: string; sessionId: string }

export function blockDetailQueryOptions(run: RunRef, sel: BlockSelector) {
  return jsonQuery<BlockDetail>(runKeys.block(run, sel.blockKey, sel.userId, sel.sessionId), () =>
    links.api.block(run, sel.blockKey, sel.userId, sel.sessionId),
  )
}

/** What going back to `toVersion` (null: a clear) makes the agent redo; asked when a write dialog opens. */
export function replayQueryOptions(run: RunRef, sel: BlockSelector, toVersion: string | null) {
  return jsonQuery<ReplayPreview>(runKeys.replay(run, sel.blockKey, sel.userId, sel.sessionId, toVersion), () =>
    links.api.replay(run, sel.blockKey, sel.userId, sel.sessionId, toVersion),
  )
}
