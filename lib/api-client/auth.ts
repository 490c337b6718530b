import { queryOptions } from '@tanstack/react-query'
import type { Me } from '../api/types'
import { links } from '../links'
import { fetchJson, sendJson } from './fetch-json'
import { authKeys } from './keys'

/** Who the browser is signed in as, and what the console lets them do. */
export function meQueryOptions() {
  return queryOptions({
    queryKey: authKeys.me(),
    queryFn: ({ signal }) => fetchJson<Me>(links.api.me(), { signal }),
    staleTime: 60_000,
  })
}

export function loginRequest(body: { name: unknown; password: unknown }) {
  return sendJson<unknown>(links.api.login(), 'POST', body)
}

export function logoutRequest() {
  return fetchJson<{ ok: boolean }>(links.api.logout(), { method: 'POST' })
}
