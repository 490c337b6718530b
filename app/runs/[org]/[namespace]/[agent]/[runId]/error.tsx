'use client'

import { ErrorPanel } from '@/components/ui/error-panel'
import styles from './run-page.module.css'

/** The run page failed while rendering: say what failed and offer a retry that asks the server again. */
export default function RunPageError({
  error,
  reset,
  retry,
}: {
  error: Error & { digest?: string }
  reset: () => void
  retry?: () => void
}) {
  return (
    <ErrorPanel
      title="This run could not be shown"
      error={error}
      className={styles.state}
      onRetry={() => (retry ?? reset)()}
    />
  )
}
