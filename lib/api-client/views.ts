import type { SavedView } from '../views/types'
import { endpoints } from '../endpoints/api'
import type { SentBodyOf } from '../endpoints/define'
import { endpointQuery, sendEndpoint } from './endpoint'

export function viewsQueryOptions() {
  return endpointQuery(endpoints.views, {})
}

export function deliveriesQueryOptions(id: string) {
  return endpointQuery(endpoints.viewDeliveries, {
    params: { id },
  })
}

export type ViewInput = { name: string; filter: Record<string, unknown>; shared: boolean; alert: SavedView['alert'] }

// The filter goes as the runs list holds it; the server checks each field.
type SentView = SentBodyOf<typeof endpoints.createView>

export const createViewRequest = (v: ViewInput) => sendEndpoint(endpoints.createView, { body: v as SentView })
export const updateViewRequest = (id: string, patch: Partial<ViewInput>) =>
  sendEndpoint(endpoints.updateView, {
    params: { id },
    body: patch as Partial<SentView>,
  })
export const deleteViewRequest = (id: string) => sendEndpoint(endpoints.deleteView, { params: { id } })
export const testViewRequest = (id: string) => sendEndpoint(endpoints.testView, { params: { id } })
