import type { Block } from '../api/types'
import type { RunRef } from '../loom/identity'
import { links } from '../links'
import { sendJson } from './fetch-json'

export type WriteResponse = { block: Block; confirmed: boolean; warning?: string; current?: Block | null }

export type BlockTarget = { run: RunRef; blockKey: string; userId: string; sessionId: string }

function send(url: string, method: 'PUT' | 'DELETE' | 'POST', body: unknown) {
  return sendJson<WriteResponse>(url, method, body)
}

export function editBlockRequest(
  t: BlockTarget,
  body: { content: string; expectedVersion: string; reason: string; force?: boolean },
) {
  return send(links.api.block(t.run, t.blockKey, t.userId, t.sessionId), 'PUT', body)
}

export function clearBlockRequest(t: BlockTarget, body: { expectedVersion: string; reason: string; force?: boolean }) {
  return send(links.api.block(t.run, t.blockKey, t.userId, t.sessionId), 'DELETE', body)
}

export function restoreBlockRequest(
  t: BlockTarget,
  body: { version: string; expectedVersion: string; reason: string; force?: boolean },
) {
  return send(links.api.restore(t.run, t.blockKey, t.userId, t.sessionId), 'POST', body)
}
