/** Saved views of the runs list and their alerts (`/api/views`). */
import { z } from 'zod'
import { iso, obj } from './parts'

export const viewAlert = obj({ webhook: z.string(), threshold: z.number(), enabled: z.boolean() })
export type ViewAlert = z.infer<typeof viewAlert>

export const savedView = obj({
  id: z.string(),
  name: z.string().describe('1-80 characters'),
  filter: z
    .record(z.string(), z.unknown())
    .describe('the runs list filter, as batches take it (times as ISO text, flags as an array)'),
  shared: z.boolean(),
  owner: z.string(),
  createdAt: iso,
  updatedAt: iso,
  alert: viewAlert.nullable(),
})
export type SavedView = z.infer<typeof savedView>

export const viewsResponse = obj({
  views: z.array(savedView).describe("the caller's own views and the shared ones, by name"),
})
export const viewResponse = obj({ view: savedView })
export const viewDeletedResponse = obj({ deleted: z.string() })

export const alertDelivery = obj({
  at: iso,
  kind: z.enum(['alert', 'test']),
  status: z.number().describe('the HTTP status; 0 when no answer came'),
  ok: z.boolean(),
  count: z.number(),
  error: z.string().optional(),
})
export type AlertDelivery = z.infer<typeof alertDelivery>
export const deliveriesResponse = obj({ deliveries: z.array(alertDelivery).describe('newest first') })
export const testDeliveryResponse = obj({ delivery: alertDelivery })
