'use client'

import { useEffect, useSyncExternalStore } from 'react'
import { buttonClass } from './button'

type Theme = 'light' | 'dark'

const STORAGE_KEY = 'loom-runs-theme'

/** The theme saved by the toggle, else the system's (what the inline script in the layout applies). */
function preferredTheme(): Theme {
  try {
    const saved = localStorage.getItem(STORAGE_KEY)
    if (saved === 'light' || saved === 'dark') return saved
  } catch {
    // No storage: the system decides.
  }
  return matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light'
}

function subscribe(onChange: () => void) {
  const observer = new MutationObserver(onChange)
  observer.observe(document.documentElement, { attributes: true, attributeFilter: ['data-theme'] })
  return () => observer.disconnect()
}

/** The attribute as it is ('' when missing), so that losing it counts as a change. */
const readAttribute = () => document.documentElement.dataset.theme ?? ''

export function ThemeToggle() {
  const attribute = useSyncExternalStore<string | null>(subscribe, readAttribute, () => null)
  const theme: Theme | null = attribute === null ? null : attribute === 'dark' ? 'dark' : 'light'
  const next: Theme = theme === 'dark' ? 'light' : 'dark'
  // React renders the whole document again when a page turns out missing while streaming, which
  // drops the attribute the inline script set before first paint: put it back.
  useEffect(() => {
    if (attribute === '') document.documentElement.dataset.theme = preferredTheme()
  }, [attribute])
  return (
    <button
      type="button"
      className={buttonClass('ghost')}
      aria-label={`Switch to ${next} mode`}
      title={`Switch to ${next} mode`}
      onClick={() => {
        document.documentElement.dataset.theme = next
        try {
          localStorage.setItem(STORAGE_KEY, next)
        } catch {
          // Private mode: the choice lasts for this page only.
        }
      }}
    >
      {theme === 'dark' ? '☀ Light' : '☾ Dark'}
    </button>
  )
}
