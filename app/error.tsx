'use client'

import { useRouter } from 'next/navigation'
import { startTransition } from 'react'
import { ErrorPanel } from '@/components/ui/error-panel'
import styles from './_components/state.module.css'

/** A page failed while rendering on the server or in the browser: say so, and offer a retry that asks the server again. */
export default function PageError({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  const router = useRouter()
  return (
    <ErrorPanel
      title="This page could not be shown"
      error={error}
      className={styles.state}
      onRetry={() =>
        startTransition(() => {
          router.refresh()
          reset()
        })
      }
    />
  )
}
