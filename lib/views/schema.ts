import { AppError } from '../errors'
import { getConfig } from '../config'

export {
  VIEW_NAME_MAX,
  viewBodySchema,
  viewIdParamsSchema,
  viewPatchSchema,
  type ViewBody,
  type ViewPatch,
} from '../endpoints/inputs'
export type { ViewAlert } from '../endpoints/views'

/** The host (and port, when not the scheme's default) a webhook URL goes to, lower case. */
function hostOf(u: URL): string {
  return u.host.toLowerCase()
}

/** A webhook URL the server may call: http(s), to a host listed in LOOM_RUNS_WEBHOOK_HOSTS. */
export function webhookRefusal(value: string, allowed = getConfig().webhookHosts): string | null {
  let u: URL
  try {
    u = new URL(value)
  } catch {
    return 'must be an http(s) URL'
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return 'must be an http(s) URL'
  if (u.username || u.password) return 'must not carry a user name or password'
  if (allowed.length === 0)
    return 'cannot be set: no webhook host is allowed on this console (LOOM_RUNS_WEBHOOK_HOSTS is empty)'
  const host = hostOf(u)
  if (!allowed.includes(host) && !allowed.includes(u.hostname.toLowerCase()))
    return `host ${host} is not in LOOM_RUNS_WEBHOOK_HOSTS`
  // A bare host name in the list allows the scheme's default port only.
  if (!allowed.includes(host) && u.port !== '') return `host ${host} is not in LOOM_RUNS_WEBHOOK_HOSTS`
  return null
}

/**
 * The configuration's part of a view's validation: an alert's webhook must go to an allowed host.
 * A 400 naming `alert.webhook`, as the body's other checks do.
 */
export function checkWebhook(alert: { webhook: string } | null | undefined): void {
  if (!alert) return
  const why = webhookRefusal(alert.webhook)
  if (why) throw new AppError('invalid', `alert.webhook ${why}`, { details: { field: 'alert.webhook' } })
}
