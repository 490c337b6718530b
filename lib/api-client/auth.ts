import { endpoints } from '../endpoints/api'
import { endpointQuery, sendEndpoint } from './endpoint'

/** Who the browser is signed in as, and what the console lets them do. */
export function meQueryOptions() {
  return endpointQuery(endpoints.me, {})
}

export function loginRequest(body: { name: unknown; password: unknown }) {
  // The form's values go as they are: the server names what is wrong with them.
  return sendEndpoint<typeof endpoints.login, unknown>(endpoints.login, {
    body: body as { name: string; password: string },
  })
}

export function logoutRequest() {
  return sendEndpoint<typeof endpoints.logout, { ok: boolean }>(endpoints.logout, {})
}
