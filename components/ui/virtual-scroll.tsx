import type { ReactNode, RefObject } from 'react'
import virtual from './virtual-list.module.css'

/** The box a virtualized list scrolls inside: focusable, so the keyboard scrolls it, and named for a screen reader. */
export function VirtualScroll({
  scrollRef,
  className,
  label,
  children,
}: {
  scrollRef: RefObject<HTMLDivElement | null>
  /** The caller's own class, e.g. one that sets --scroll-max. */
  className?: string
  label: string
  children: ReactNode
}) {
  return (
    <div
      ref={scrollRef}
      className={className ? `${virtual.scroll} ${className}` : virtual.scroll}
      tabIndex={0}
      aria-label={label}
    >
      {children}
    </div>
  )
}
