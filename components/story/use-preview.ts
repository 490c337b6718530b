'use client'

import { useQueryClient, type QueryKey } from '@tanstack/react-query'

/**
 * A tab query's `placeholderData`: until its whole answer arrives, the first part the run page
 * read on the server under `previewKey` (a long timeline's first events, a long transcript's
 * first turns). The query's `isPlaceholderData` says the part is showing.
 */
export function usePreview<T>(previewKey: QueryKey): () => T | undefined {
  const client = useQueryClient()
  return () => client.getQueryData<T>(previewKey)
}
