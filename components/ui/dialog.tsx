'use client'

import { useEffect, useId, useRef, type ReactNode } from 'react'
import { Button } from './button'
import styles from './dialog.module.css'

/** The first place to type in: the dialog opens there rather than on its Close button. */
const FIRST_FIELD =
  'input:not([type="hidden"]):not([type="checkbox"]):not([type="radio"]):not(:disabled):not([readonly]), textarea:not(:disabled):not([readonly]), select:not(:disabled)'

/**
 * A native modal dialog: focus is trapped, Escape closes it, the page behind is inert. It opens
 * with focus on its first field and, when it closes, gives focus back to the control that opened it.
 */
export function Dialog({
  title,
  onClose,
  children,
  wide,
}: {
  title: string
  onClose: () => void
  children: ReactNode
  wide?: boolean
}) {
  const ref = useRef<HTMLDialogElement>(null)
  const bodyRef = useRef<HTMLDivElement>(null)
  const titleId = useId()
  useEffect(() => {
    const d = ref.current
    const opener =
      document.activeElement instanceof HTMLElement && document.activeElement !== document.body
        ? document.activeElement
        : null
    if (d && !d.open) {
      d.showModal()
      bodyRef.current?.querySelector<HTMLElement>(FIRST_FIELD)?.focus()
    }
    return () => {
      d?.close()
      // The dialog unmounts with its opener still on the page: the keyboard user carries on from there.
      if (opener?.isConnected) opener.focus()
    }
  }, [])
  return (
    <dialog
      ref={ref}
      className={wide ? `${styles.dialog} ${styles.wide}` : styles.dialog}
      aria-labelledby={titleId}
      onCancel={(e) => {
        e.preventDefault()
        onClose()
      }}
    >
      <header className={styles.head}>
        <h2 id={titleId} className={styles.title}>
          {title}
        </h2>
        <Button variant="ghost" onClick={onClose} aria-label="Close">
          ✕
        </Button>
      </header>
      <div ref={bodyRef} className={styles.body}>
        {children}
      </div>
    </dialog>
  )
}
