'use client'

import { ApiRequestError } from '@/lib/api-client/fetch-json'
import { Banner } from './banner'
import { Button } from './button'

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

/** A failed load, with a retry when the caller can refetch; `stale` says older data is still on screen. */
export function ErrorBanner({ error, onRetry, stale }: { error: unknown; onRetry?: () => void; stale?: boolean }) {
  return (
    <Banner tone="error">
      <span>
        <strong>Could not load.</strong> {sentence(errorText(error))}
        {stale ? ' Showing the last data received.' : ''}
      </span>
      {onRetry ? <Button onClick={onRetry}>Retry</Button> : null}
    </Banner>
  )
}
