'use client'

import { useEffect, useRef, useState, type KeyboardEvent, type ReactNode } from 'react'

/** Which edges of the strip hide tabs: the fade on that side says there is more to scroll to. */
type More = 'none' | 'start' | 'end' | 'both'

function moreOf(el: HTMLElement): More {
  const start = el.scrollLeft > 1
  const end = el.scrollLeft + el.clientWidth < el.scrollWidth - 1
  return start && end ? 'both' : start ? 'start' : end ? 'end' : 'none'
}

/** Scrolls the strip (never the page, as scrollIntoView would) so the selected tab shows whole. */
function revealSelected(el: HTMLElement) {
  const tab = el.querySelector<HTMLElement>('[role="tab"][aria-selected="true"]')
  if (!tab) return
  const edge = 32
  const left = tab.offsetLeft
  const right = left + tab.offsetWidth
  if (left - edge < el.scrollLeft) el.scrollLeft = Math.max(0, left - edge)
  else if (right + edge > el.scrollLeft + el.clientWidth) el.scrollLeft = right + edge - el.clientWidth
}

/**
 * A tablist on one line that scrolls sideways inside itself when the window is too narrow,
 * fading out at the edge that hides tabs and keeping the selected tab in view.
 */
export function TabStrip({
  label,
  selectedKey,
  onKeyDown,
  children,
}: {
  label: string
  /** Changes when another tab is selected: the strip then scrolls it into view. */
  selectedKey: string
  onKeyDown: (e: KeyboardEvent) => void
  children: ReactNode
}) {
  const ref = useRef<HTMLDivElement>(null)
  // Unknown until measured in the browser: the server's HTML carries no data-more.
  const [more, setMore] = useState<More | undefined>(undefined)

  useEffect(() => {
    const el = ref.current
    if (!el) return
    const update = () => setMore(moreOf(el))
    // A narrower window (a phone turned upright) must not hide the selected tab either.
    const observer = new ResizeObserver(() => {
      revealSelected(el)
      update()
    })
    observer.observe(el)
    el.addEventListener('scroll', update, { passive: true })
    return () => {
      observer.disconnect()
      el.removeEventListener('scroll', update)
    }
  }, [])

  useEffect(() => {
    const el = ref.current
    if (!el) return
    revealSelected(el)
    setMore(moreOf(el))
  }, [selectedKey])

  return (
    <div className="tabs-bar">
      <div ref={ref} className="tabs tabs-strip" role="tablist" aria-label={label} data-more={more} onKeyDown={onKeyDown}>
        {children}
      </div>
    </div>
  )
}
