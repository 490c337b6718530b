'use client'

import Link from 'next/link'
import { useEffect } from 'react'
import { errorText } from '@/components/ui/error-banner'
import styles from './run-page.module.css'

/** The run page failed while rendering: say what failed and offer a retry that asks the server again. */
export default function RunPageError({ error, reset, retry }: { error: Error & { digest?: string }; reset: () => void; retry?: () => void }) {
  useEffect(() => {
    console.error(error)
  }, [error])
  return (
    <div className={`panel stack ${styles.state}`} role="alert">
      <h1>This run could not be shown</h1>
      <p>{errorText(error)}</p>
      {error.digest ? <p className="small muted">Reference: <code>{error.digest}</code></p> : null}
      <div className="row">
        <button type="button" className="btn btn-primary" onClick={() => (retry ?? reset)()}>
          Retry
        </button>
        <Link href="/">Back to all runs</Link>
      </div>
    </div>
  )
}
