'use client'

import { useSyncExternalStore } from 'react'

const noSubscription = () => () => {}

/**
 * False in the server's HTML and while React hydrates it, true once the page is interactive.
 * Controls whose changes only the client can apply stay disabled until then, so a choice made
 * in that window is not silently reset by hydration.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  )
}
