import type { Block } from '../api/types'
import { endpoints } from '../endpoints/api'
import type { RunRef } from '../loom/identity'
import { sendEndpoint } from './endpoint'

export type WriteResponse = { block: Block; confirmed: boolean; warning?: string; current?: Block | null }

export type BlockTarget = { run: RunRef; blockKey: string; userId: string; sessionId: string }

/** The block's path parameters and writer identity (the identity travels in the query). */
const target = (t: BlockTarget) => ({
  params: { ...t.run, blockKey: t.blockKey },
  query: { userId: t.userId, sessionId: t.sessionId },
})

export function editBlockRequest(
  t: BlockTarget,
  body: { content: string; expectedVersion: string; reason: string; force?: boolean },
) {
  return sendEndpoint<typeof endpoints.editBlock, WriteResponse>(endpoints.editBlock, { ...target(t), body })
}

export function clearBlockRequest(t: BlockTarget, body: { expectedVersion: string; reason: string; force?: boolean }) {
  return sendEndpoint<typeof endpoints.clearBlock, WriteResponse>(endpoints.clearBlock, { ...target(t), body })
}

export function restoreBlockRequest(
  t: BlockTarget,
  body: { version: string; expectedVersion: string; reason: string; force?: boolean },
) {
  return sendEndpoint<typeof endpoints.restoreBlock, WriteResponse>(endpoints.restoreBlock, { ...target(t), body })
}
