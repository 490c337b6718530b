'use client'

import type { ReactNode } from 'react'
import { ErrorBanner } from './error-banner'

/** The part of a TanStack query result that decides what a view shows. */
export type QueryLike<T> = {
  data: T | undefined
  error: unknown
  isError: boolean
  refetch: () => unknown
}

/**
 * One answer to "what does this view show now?" for any query: the placeholder until the first data,
 * an error with a retry when nothing arrived, the empty state when the data holds nothing, and otherwise
 * the data, under a banner when a later refetch failed so the operator knows it may be out of date.
 */
export function QueryState<T>({
  query,
  pending,
  isEmpty,
  empty,
  className,
  staleBanner = true,
  children,
}: {
  query: QueryLike<T>
  pending: ReactNode
  isEmpty?: (data: T) => boolean
  /** Shown instead of the data when `isEmpty` says it holds nothing; a function when what to say depends on it. */
  empty?: ReactNode | ((data: T) => ReactNode)
  /** The box the data (and a stale-data banner) sit in; none renders them bare. */
  className?: string
  /** False where a neighbour's banner already says the view shows the last data received. */
  staleBanner?: boolean
  children: (data: T) => ReactNode
}) {
  const retry = () => void query.refetch()
  if (query.data === undefined)
    return query.isError ? <ErrorBanner error={query.error} onRetry={retry} /> : <>{pending}</>
  const data = query.data
  const content = (
    <>
      {query.isError && staleBanner ? <ErrorBanner error={query.error} onRetry={retry} stale /> : null}
      {isEmpty?.(data) ? (typeof empty === 'function' ? empty(data) : empty) : children(data)}
    </>
  )
  return className ? <div className={className}>{content}</div> : content
}
