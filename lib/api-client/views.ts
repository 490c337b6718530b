import { queryOptions } from '@tanstack/react-query'
import type { AlertDelivery, SavedView } from '../views/types'
import { links } from '../links'
import { fetchJson, sendJson } from './fetch-json'
import { viewKeys } from './keys'

export function viewsQueryOptions() {
  return queryOptions({ queryKey: viewKeys.all, queryFn: ({ signal }) => fetchJson<{ views: SavedView[] }>(links.api.views(), { signal }) })
}

export function deliveriesQueryOptions(id: string) {
  return queryOptions({
    queryKey: viewKeys.deliveries(id),
    queryFn: ({ signal }) => fetchJson<{ deliveries: AlertDelivery[] }>(links.api.viewDeliveries(id), { signal }),
  })
}

export type ViewInput = { name: string; filter: Record<string, unknown>; shared: boolean; alert: SavedView['alert'] }

export const createViewRequest = (v: ViewInput) => sendJson<{ view: SavedView }>(links.api.views(), 'POST', v)
export const updateViewRequest = (id: string, patch: Partial<ViewInput>) => sendJson<{ view: SavedView }>(links.api.view(id), 'PUT', patch)
export const deleteViewRequest = (id: string) => sendJson<{ deleted: string }>(links.api.view(id), 'DELETE', {})
export const testViewRequest = (id: string) => sendJson<{ delivery: AlertDelivery }>(links.api.viewTest(id), 'POST', {})
