'use client'

import Link from 'next/link'
import { useEffect } from 'react'
import { Button } from './button'
import { errorText } from './error-banner'

/**
 * What a route's error boundary shows: what failed, the server's reference for it, a retry and the way
 * back to the list. The error also goes to the console, where a developer looks first.
 */
export function ErrorPanel({
  title,
  error,
  onRetry,
  className,
}: {
  title: string
  error: Error & { digest?: string }
  onRetry: () => void
  className: string
}) {
  useEffect(() => {
    console.error(error)
  }, [error])
  return (
    <div className={`panel stack ${className}`} role="alert">
      <h1>{title}</h1>
      <p>{errorText(error)}</p>
      {error.digest ? (
        <p className="small muted">
          Reference: <code>{error.digest}</code>
        </p>
      ) : null}
      <div className="row">
        <Button variant="primary" onClick={onRetry}>
          Retry
        </Button>
        <Link prefetch={false} href="/">
          Back to all runs
        </Link>
      </div>
    </div>
  )
}
