'use client'

import type { ReactNode } from 'react'
import { Button, type ButtonVariant } from '../ui/button'
import { Dialog } from '../ui/dialog'
import styles from './write-dialog.module.css'
import { bindText } from '../ui/bind-text'

const REASON_LABEL = 'Reason (recorded in the audit log)'

/** Every console write asks why: the answer goes to the audit log next to the change. */
export function ReasonField({
  value,
  onChange,
  label = REASON_LABEL,
  placeholder,
}: {
  value: string
  onChange: (v: string) => void
  label?: string
  placeholder?: string
}) {
  return (
    <label className="field">
      {label}
      <textarea
        {...bindText(value, onChange)}
        rows={2}
        placeholder={placeholder}
        required={placeholder !== undefined}
      />
    </label>
  )
}

export type WriteConfirm = {
  label: string
  variant: ButtonVariant
  disabled: boolean
  onConfirm: () => void
}

/**
 * The shape every write dialog shares: what the write does, why the server refused it (if it did), the
 * dialog's own fields, the reason, then a footer saying what is still missing beside Cancel and Confirm.
 * `hintId` ties the hint to the confirm button, so a screen reader hears why it is disabled.
 */
export function WriteDialog({
  title,
  wide,
  onClose,
  lead,
  refusal,
  children,
  reason,
  hint,
  hintId,
  extraAction,
  cancelLabel = 'Cancel',
  confirm,
}: {
  title: string
  wide?: boolean
  onClose: () => void
  lead: ReactNode
  refusal?: ReactNode
  children?: ReactNode
  /** Left out when the dialog places its reason itself, e.g. only once there is something to write. */
  reason?: { value: string; onChange: (v: string) => void; placeholder?: string }
  hint?: ReactNode
  hintId?: string
  extraAction?: ReactNode
  cancelLabel?: string
  confirm?: WriteConfirm
}) {
  return (
    <Dialog title={title} onClose={onClose} wide={wide}>
      {lead}
      {refusal}
      {children}
      {reason ? <ReasonField value={reason.value} onChange={reason.onChange} placeholder={reason.placeholder} /> : null}
      <div className={styles.footer}>
        <span id={hintId} className={`small muted ${styles.hint}`} aria-live={hintId ? 'polite' : undefined}>
          {hint}
        </span>
        {extraAction}
        <Button onClick={onClose}>{cancelLabel}</Button>
        {confirm ? (
          <Button
            variant={confirm.variant}
            disabled={confirm.disabled}
            aria-describedby={hintId}
            onClick={confirm.onConfirm}
          >
            {confirm.label}
          </Button>
        ) : null}
      </div>
    </Dialog>
  )
}
