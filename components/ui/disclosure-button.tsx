import type { ReactNode } from 'react'
import styles from './disclosure-button.module.css'

/** A heading's button that folds the section below it; the chevron turns with `open`. */
export function DisclosureButton({
  open,
  controls,
  onToggle,
  children,
}: {
  open: boolean
  controls: string
  onToggle: () => void
  children: ReactNode
}) {
  return (
    <button type="button" className={styles.toggle} aria-expanded={open} aria-controls={controls} onClick={onToggle}>
      <span className={styles.chevron} aria-hidden />
      {children}
    </button>
  )
}
