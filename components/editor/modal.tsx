'use client'

import { useEffect, useId, useRef, type ReactNode } from 'react'

/** The first place to type in: the dialog opens there rather than on its Close button. */
const FIRST_FIELD = 'input:not([type="hidden"]):not([type="checkbox"]):not([type="radio"]):not(:disabled):not([readonly]), textarea:not(:disabled):not([readonly]), select:not(:disabled)'

/**
 * A native modal dialog: focus is trapped, Escape closes it, the page behind is inert. It opens
 * with focus on its first field and, when it closes, gives focus back to the control that opened it.
 */
export function Modal({ title, onClose, children, wide }: { title: string; onClose: () => void; children: ReactNode; wide?: boolean }) {
  const ref = useRef<HTMLDialogElement>(null)
  const titleId = useId()
  useEffect(() => {
    const d = ref.current
    const opener = document.activeElement instanceof HTMLElement && document.activeElement !== document.body ? document.activeElement : null
    if (d && !d.open) {
      d.showModal()
      d.querySelector<HTMLElement>(`.modal-body :is(${FIRST_FIELD})`)?.focus()
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
      className={`modal${wide ? ' modal-wide' : ''}`}
      aria-labelledby={titleId}
      onCancel={(e) => {
        e.preventDefault()
        onClose()
      }}
    >
      <header className="row modal-head">
        <h2 id={titleId} style={{ margin: 0 }}>
          {title}
        </h2>
        <span className="spacer" />
        <button type="button" className="btn btn-ghost" onClick={onClose} aria-label="Close">
          ✕
        </button>
      </header>
      <div className="stack modal-body">{children}</div>
    </dialog>
  )
}
