'use client'

import { useSyncExternalStore } from 'react'

/**
 * A per-browser preference kept in localStorage, shared by every component that reads it and
 * followed across tabs. Where storage is unavailable (private mode, blocked cookies) the value
 * lasts for this page. The server render sees `serverValue`.
 */
export function storedSetting(key: string, initial: string | null) {
  const listeners = new Set<() => void>()
  let fallback = initial

  function subscribe(onChange: () => void) {
    listeners.add(onChange)
    // Another tab changed it.
    window.addEventListener('storage', onChange)
    return () => {
      listeners.delete(onChange)
      window.removeEventListener('storage', onChange)
    }
  }

  function read(): string | null {
    try {
      return localStorage.getItem(key) ?? fallback
    } catch {
      return fallback
    }
  }

  function write(value: string) {
    fallback = value
    try {
      localStorage.setItem(key, value)
    } catch {
      // Storage unavailable: `fallback` keeps it for this page.
    }
    listeners.forEach((l) => l())
  }

  function useValue(serverValue: string | null): string | null {
    return useSyncExternalStore(subscribe, read, () => serverValue)
  }

  return { useValue, write }
}
