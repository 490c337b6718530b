'use client'

import { useRef, useState } from 'react'
import styles from './sql-fix.module.css'
import { buttonClass } from '../ui/button'

type CopyState = 'idle' | 'copied' | 'failed'

/** Copies text with the Clipboard API; says so for two seconds, or says to select it by hand. */
export function CopyButton({
  text,
  label = 'Copy',
  describedBy,
}: {
  text: string
  label?: string
  describedBy?: string
}) {
  const [state, setState] = useState<CopyState>('idle')
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null)

  async function copy() {
    let next: CopyState = 'copied'
    try {
      // Missing outside secure contexts (plain http on another host): fall through to "select it".
      if (!navigator.clipboard) throw new Error('clipboard unavailable')
      await navigator.clipboard.writeText(text)
    } catch {
      next = 'failed'
    }
    setState(next)
    if (timer.current) clearTimeout(timer.current)
    timer.current = setTimeout(() => setState('idle'), 2000)
  }

  return (
    <button
      type="button"
      className={buttonClass('default', 'normal', styles.copy)}
      onClick={copy}
      aria-describedby={describedBy}
      data-state={state}
    >
      <span aria-live="polite">
        {state === 'copied' ? 'Copied ✓' : state === 'failed' ? 'Copy failed: select the text' : label}
      </span>
    </button>
  )
}
