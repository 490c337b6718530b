import type { ReactNode } from 'react'
import { bannerClass } from '../ui/banner'
import type { WriteRefusal } from './use-block-write'
import styles from './write-dialog.module.css'

/**
 * Why the server refused a write. For a run still writing, the operator may force it when the dialog
 * allows that; a conflict may carry the dialog's own way out (re-apply, start over).
 */
export function RefusalBanner({
  refusal,
  force = false,
  onForce,
  conflict,
}: {
  refusal: WriteRefusal | null
  force?: boolean
  onForce?: (v: boolean) => void
  conflict?: ReactNode
}) {
  if (!refusal) return null
  if (refusal.kind === 'error') {
    return (
      <div className={bannerClass('error')} role="alert">
        {refusal.message}
      </div>
    )
  }
  return (
    <div className={bannerClass('warning', styles.refusal)} role="alert">
      <strong>{refusal.message}</strong>
      {refusal.kind === 'run_active' && onForce ? (
        <label className="row small">
          <input type="checkbox" checked={force} onChange={(e) => onForce(e.target.checked)} /> I stopped the agent (or
          accept the risk): write anyway
        </label>
      ) : null}
      {refusal.kind === 'conflict' ? conflict : null}
    </div>
  )
}
