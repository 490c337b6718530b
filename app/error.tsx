'use client'

import Link from 'next/link'
import { useRouter } from 'next/navigation'
import { startTransition, useEffect } from 'react'
import { errorText } from '@/components/ui/error-banner'
import styles from './_components/state.module.css'

/** A page failed while rendering on the server or in the browser: say so, and offer a retry that asks the server again. */
export default function PageError({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  const router = useRouter()
  useEffect(() => {
    console.error(error)
  }, [error])
  return (
    <div className={`panel stack ${styles.state}`} role="alert">
      <h1>This page could not be shown</h1>
      <p>{errorText(error)}</p>
      {error.digest ? (
        <p className="small muted">
          Reference: <code>{error.digest}</code>
        </p>
      ) : null}
      <div className="row">
        <button
          type="button"
          className="btn btn-primary"
          onClick={() =>
            startTransition(() => {
              router.refresh()
              reset()
            })
          }
        >
          Retry
        </button>
        <Link href="/">Back to all runs</Link>
      </div>
    </div>
  )
}
