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
      <div
        ref={ref}
        className="tabs tabs-strip"
        role="tablist"
        aria-label={label}
        data-more={more}
        onKeyDown={onKeyDown}
      >
        {children}
      </div>
    </div>
  )
}

/** Arrow keys, Home and End move between tabs, as in any tablist; the new tab takes the focus. */
function keyMove<K extends string>(tabs: readonly K[], current: K, key: string): K | undefined {
  const i = tabs.indexOf(current)
  const moves: Record<string, K> = {
    ArrowRight: tabs[(i + 1) % tabs.length],
    ArrowLeft: tabs[(i - 1 + tabs.length) % tabs.length],
    Home: tabs[0],
    End: tabs[tabs.length - 1],
  }
  return moves[key]
}

/**
 * A row of tabs over one panel: each tab is `tab-<key>` and controls `panelId`; only the selected tab
 * is in the page's tab order, the arrows move between them.
 */
export function Tabs<K extends string>({
  label,
  tabs,
  selected,
  onSelect,
  panelId,
  labelOf,
  countOf,
}: {
  label: string
  tabs: readonly K[]
  selected: K
  onSelect: (tab: K) => void
  panelId: string
  labelOf: (tab: K) => string
  countOf?: (tab: K) => number | undefined
}) {
  const refs = useRef<Partial<Record<K, HTMLButtonElement | null>>>({})
  const onKeyDown = (e: KeyboardEvent) => {
    const next = keyMove(tabs, selected, e.key)
    if (!next) return
    e.preventDefault()
    onSelect(next)
    refs.current[next]?.focus()
  }
  return (
    <TabStrip selectedKey={selected} label={label} onKeyDown={onKeyDown}>
      {tabs.map((t) => {
        const n = countOf?.(t)
        return (
          <button
            key={t}
            ref={(el) => {
              refs.current[t] = el
            }}
            role="tab"
            type="button"
            id={`tab-${t}`}
            aria-selected={selected === t}
            aria-controls={panelId}
            tabIndex={selected === t ? 0 : -1}
            onClick={() => onSelect(t)}
          >
            {labelOf(t)}
            {n !== undefined ? <span className="count">{n.toLocaleString('en')}</span> : null}
          </button>
        )
      })}
    </TabStrip>
  )
}
