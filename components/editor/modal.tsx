'use client'

import { useEffect, useId, useRef, type ReactNode } from 'react'

/** A native modal dialog: focus is trapped, Escape closes it, the page behind is inert. */
export function Modal({ title, onClose, children, wide }: { title: string; onClose: () => void; children: ReactNode; wide?: boolean }) {
  const ref = useRef<HTMLDialogElement>(null)
  const titleId = useId()
  useEffect(() => {
    const d = ref.current
    if (d && !d.open) d.showModal()
    return () => d?.close()
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
