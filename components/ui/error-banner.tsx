'use client'

import { ApiRequestError } from '@/lib/api-client/fetch-json'

export function errorText(error: unknown): string {
  if (error instanceof ApiRequestError) {
    if (error.status === 503) return `ClickHouse is unavailable: ${error.message}`
    if (error.status === 504) return `The query took too long: ${error.message}`
    return error.message
  }
  return error instanceof Error ? error.message : 'Something went wrong'
}

/** Server messages may end without a full stop; the banner reads as sentences. */
const sentence = (text: string) => (/[.!?…]$/.test(text.trim()) ? text : `${text}.`)

export function ErrorBanner({ error, onRetry, stale }: { error: unknown; onRetry?: () => void; stale?: boolean }) {
  return (
    <div className="banner banner-error" role="alert">
      <span>
        <strong>Could not load.</strong> {sentence(errorText(error))}
        {stale ? ' Showing the last data received.' : ''}
      </span>
      {onRetry ? (
        <button type="button" className="btn" onClick={onRetry}>
          Retry
        </button>
      ) : null}
    </div>
  )
}
