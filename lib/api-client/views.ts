import type { AlertDelivery, SavedView } from '../views/types'
import { links } from '../links'
import { sendJson } from './fetch-json'
import { jsonQuery } from './json-query'
import { viewKeys } from './keys'

export function viewsQueryOptions() {
  return jsonQuery<{ views: SavedView[] }>(viewKeys.all, () => links.api.views())
}

export function deliveriesQueryOptions(id: string) {
  return jsonQuery<{ deliveries: AlertDelivery[] }>(viewKeys.deliveries(id), () => links.api.viewDeliveries(id))
}

export type ViewInput = { name: string; filter: Record<string, unknown>; shared: boolean; alert: SavedView['alert'] }

export const createViewRequest = (v: ViewInput) => sendJson<{ view: SavedView }>(links.api.views(), 'POST', v)
export const updateViewRequest = (id: string, patch: Partial<ViewInput>) =>
  sendJson<{ view: SavedView }>(links.api.view(id), 'PUT', patch)
export const deleteViewRequest = (id: string) => sendJson<{ deleted: string }>(links.api.view(id), 'DELETE', {})
export const testViewRequest = (id: string) => sendJson<{ delivery: AlertDelivery }>(links.api.viewTest(id), 'POST', {})
