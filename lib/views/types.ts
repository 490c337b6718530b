/** A saved view of the runs list (field names are part of the API contract). */
export type SavedView = {
  id: string
  name: string
  /** The runs list's filter, as batches take it (times as ISO text, flags as an array). */
  filter: Record<string, unknown>
  shared: boolean
  owner: string
  createdAt: string
  updatedAt: string
  alert: { webhook: string; threshold: number; enabled: boolean } | null
}

export type AlertDelivery = { at: string; kind: 'alert' | 'test'; status: number; ok: boolean; count: number; error?: string }
