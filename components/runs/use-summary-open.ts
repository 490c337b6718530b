'use client'

import { useSyncExternalStore } from 'react'

/** Whether the runs page's Summary panel is open: a per-browser preference, kept in localStorage. */
const STORAGE_KEY = 'loom-runs-summary'
const listeners = new Set<() => void>()
/** Used when storage is unavailable (private mode, blocked cookies): lasts for this page. */
let fallback = true

function subscribe(onChange: () => void) {
  listeners.add(onChange)
  // Another tab changed it.
  window.addEventListener('storage', onChange)
  return () => {
    listeners.delete(onChange)
    window.removeEventListener('storage', onChange)
  }
}

function readOpen(): boolean {
  try {
    const saved = localStorage.getItem(STORAGE_KEY)
    return saved === null ? fallback : saved !== 'collapsed'
  } catch {
    return fallback
  }
}

function writeOpen(open: boolean) {
  fallback = open
  try {
    localStorage.setItem(STORAGE_KEY, open ? 'open' : 'collapsed')
  } catch {
    // Storage unavailable: `fallback` keeps the choice for this page.
  }
  listeners.forEach((l) => l())
}

export function useSummaryOpen(): [boolean, (open: boolean) => void] {
  const open = useSyncExternalStore(subscribe, readOpen, () => true)
  return [open, writeOpen]
}
