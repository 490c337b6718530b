import { useSyncExternalStore } from 'react'

/**
 * Whether the operator is reading a row (pointer over it, or focus in it), kept outside React
 * state: the table reports it on every pointer move, and only the live refresh's status line
 * re-renders when it changes, not the whole runs view (that was a 100 ms task on the first hover).
 */
export type ReadingStore = {
  set(source: 'hover' | 'focus', on: boolean): void
  get(): boolean
  subscribe(listener: () => void): () => void
}

export function createReadingStore(): ReadingStore {
  const on = { hover: false, focus: false }
  const listeners = new Set<() => void>()
  return {
    set(source, value) {
      if (on[source] === value) return
      on[source] = value
      for (const l of listeners) l()
    },
    get: () => on.hover || on.focus,
    subscribe(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
  }
}

export function useReading(store: ReadingStore): boolean {
  return useSyncExternalStore(store.subscribe, store.get, () => false)
}
