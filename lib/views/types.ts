/** A saved view of the runs list and an alert delivery (field names are part of the API contract), declared in lib/endpoints. */
export type { AlertDelivery, SavedView } from '../endpoints/views'
