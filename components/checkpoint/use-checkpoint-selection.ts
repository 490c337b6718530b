'use client'

import { parseAsString, useQueryStates } from 'nuqs'

/**
 * The Checkpoint tab's selection, all in the URL so a view can be shared and the back button
 * works: the block (`block`, `user`, `session`; an unset identity value is absent) and the two
 * versions compared (`a`, `b`).
 */
export function useCheckpointSelection() {
  return useQueryStates(
    {
      block: parseAsString,
      user: parseAsString,
      session: parseAsString,
      a: parseAsString,
      b: parseAsString,
    },
    { history: 'push' },
  )
}
