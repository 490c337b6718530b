import type { CSSProperties } from 'react'
import styles from './skeleton.module.css'

type Length = number | string

const length = (v: Length | undefined) => (typeof v === 'number' ? `${v}px` : v)

/** One shimmering placeholder bar; its size arrives as CSS variables so the look stays in the stylesheet. */
export function Skeleton({
  width,
  height,
  label,
  className,
}: {
  width?: Length
  height?: Length
  label?: string
  className?: string
}) {
  const size = { '--skeleton-width': length(width), '--skeleton-height': length(height) } as CSSProperties
  return <div className={className ? `${styles.line} ${className}` : styles.line} style={size} aria-label={label} />
}

/**
 * A panel of placeholder bars while a view's data loads: an optional chart block, a heading bar, then
 * rows that shorten as they go so the shape reads as text.
 */
export function SkeletonPanel({
  label,
  rows = 4,
  chart = false,
  heading = '35%',
}: {
  label: string
  rows?: number
  chart?: boolean
  heading?: Length
}) {
  return (
    <div className="panel stack" aria-busy="true" aria-label={label} role="status">
      {chart ? <Skeleton height={160} /> : null}
      <Skeleton width={heading} height={18} />
      {Array.from({ length: rows }, (_, i) => (
        <Skeleton key={i} width={`${92 - i * 7}%`} />
      ))}
    </div>
  )
}

/** A panel of full-width placeholder rows while a list loads. */
export function SkeletonRows({ label, rows }: { label: string; rows: number }) {
  return (
    <div className="panel stack" aria-busy="true" aria-label={label}>
      {Array.from({ length: rows }, (_, i) => (
        <Skeleton key={i} />
      ))}
    </div>
  )
}
