import type { Me } from '../api/types'
import { links } from '../links'
import { fetchJson, sendJson } from './fetch-json'
import { jsonQuery } from './json-query'
import { authKeys } from './keys'

/** Who the browser is signed in as, and what the console lets them do. */
export function meQueryOptions() {
  return jsonQuery<Me>(authKeys.me(), () => links.api.me(), { staleTime: 60_000 })
}

export function loginRequest(body: { name: unknown; password: unknown }) {
  return sendJson<unknown>(links.api.login(), 'POST', body)
}

export function logoutRequest() {
  return fetchJson<{ ok: boolean }>(links.api.logout(), { method: 'POST' })
}
