import { z } from 'zod'
import { batchFilterSchema } from '../batch/schema'
import { getConfig } from '../config'

export const VIEW_NAME_MAX = 80

const name = z
  .string({ message: 'name must be a string' })
  .trim()
  .min(1, 'name must not be empty')
  .max(VIEW_NAME_MAX, `name is longer than ${VIEW_NAME_MAX} characters`)

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

const alertSchema = z.strictObject(
  {
    webhook: z
      .string({ message: 'webhook must be a string' })
      .max(2048, 'webhook is longer than 2048 characters')
      .superRefine((v, ctx) => {
        const why = webhookRefusal(v)
        if (why) ctx.addIssue({ code: 'custom', message: `alert.webhook ${why}` })
      }),
    threshold: z
      .number({ message: 'threshold must be a number' })
      .int('threshold must be a whole number')
      .min(1, 'threshold must be at least 1')
      .max(10_000, 'threshold must be at most 10000'),
    enabled: z.boolean({ message: 'enabled must be true or false' }).default(true),
  },
  { message: 'alert takes webhook, threshold and enabled only' },
)

export const viewBodySchema = z.strictObject(
  {
    name,
    filter: batchFilterSchema,
    shared: z.boolean({ message: 'shared must be true or false' }).default(false),
    alert: alertSchema.nullable().optional(),
  },
  { message: 'body has a field this route does not take' },
)

export const viewPatchSchema = z
  .strictObject(
    {
      name: name.optional(),
      filter: batchFilterSchema.optional(),
      shared: z.boolean({ message: 'shared must be true or false' }).optional(),
      alert: alertSchema.nullable().optional(),
    },
    { message: 'body has a field this route does not take' },
  )
  .refine((v) => Object.keys(v).length > 0, {
    message: 'body must change at least one of name, filter, shared, alert',
    path: ['name'],
  })

export const viewIdParamsSchema = z.object({
  id: z
    .string()
    .regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i, 'id must be a view id (a UUID)'),
})

export type ViewBody = z.infer<typeof viewBodySchema>
export type ViewPatch = z.infer<typeof viewPatchSchema>
export type { ViewAlert } from '../endpoints/views'
