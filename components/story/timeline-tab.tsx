'use client'

import { useQuery } from '@tanstack/react-query'
import { ChangesDuring } from './changes-during'
import dynamic from 'next/dynamic'
import { parseAsArrayOf, parseAsString, parseAsStringLiteral, useQueryState } from 'nuqs'
import { useLayoutEffect, useMemo, useRef, useState } from 'react'
import { count, duration } from '@/lib/format'
import { links } from '@/lib/links'
import type { RunRef } from '@/lib/loom/identity'
import type { TimelineKind } from '@/lib/api/timeline-kinds'
import { runTimelinePreviewQueryOptions, runTimelineQueryOptions } from '@/lib/api-client/run-tabs'
import type { TimelineResponse } from '@/lib/api/types'
import { Banner } from '../ui/banner'
import { buttonClass } from '../ui/button'
import { EmptyState } from '../ui/empty-state'
import { QueryState } from '../ui/query-state'
import { Skeleton, SkeletonPanel } from '../ui/skeleton'
import { KIND_CLASS, TimelineList } from './timeline-list'
import { KIND_LABEL, KIND_ORDER, buildTimeAxis, marksFor, prepare, resumeTags } from './timeline-model'
import { TimelinePayload } from './timeline-payload'
import { usePreview } from './use-preview'
import { Button } from '../ui/button'
import styles from './timeline.module.css'

// The chart library loads after the list has rendered, so the first rows do not wait for it.
const TimelineChart = dynamic(() => import('./timeline-chart').then((m) => m.TimelineChart), {
  ssr: false,
  loading: () => <Skeleton height={160} label="Loading the chart" />,
})

/** Everything the run did, in time order: a swimlane chart over a virtualized list. */
export function TimelineTab({ runRef }: { runRef: RunRef }) {
  const q = useQuery({
    ...runTimelineQueryOptions(runRef),
    placeholderData: usePreview<TimelineResponse>(runTimelinePreviewQueryOptions(runRef).queryKey),
  })
  return (
    <QueryState
      query={q}
      pending={<SkeletonPanel label="Loading timeline" chart rows={6} />}
      className="stack story"
      isEmpty={(data) => data.events.length === 0}
      empty={
        <EmptyState title="No events recorded for this run">
          Nothing in working memory, conversations, memories, searches or blobs carries this run_id yet.
        </EmptyState>
      }
    >
      {(data) => (
        <>
          {q.isPlaceholderData ? (
            <Banner tone="info">
              <span>
                Showing the first {count(data.events.length)} of {count(data.total)} events while the rest loads…
              </span>
            </Banner>
          ) : data.truncated ? (
            <Banner tone="warning">
              <span>
                Showing the first {count(data.events.length)} of {count(data.total)} events. The chart and list stop
                there so the page stays quick.
              </span>
              <a className={buttonClass()} href={links.api.export(runRef)} download>
                Download all as JSON
              </a>
            </Banner>
          ) : null}
          <ChangesDuring runRef={runRef} from={data.events[0].at} to={data.events[data.events.length - 1].at} />
          <TimelineView runRef={runRef} data={data} />
        </>
      )}
    </QueryState>
  )
}

const isTyping = (t: EventTarget | null) =>
  t instanceof HTMLElement && (t.isContentEditable || !!t.closest('input, textarea, select, [contenteditable="true"]'))

/** Position in `rows` (sorted event indices) of the first row after (dir 1) or before (dir -1) event index i. */
function neighbourRow(rows: number[], i: number, dir: 1 | -1): number {
  let lo = 0
  let hi = rows.length
  while (lo < hi) {
    const mid = (lo + hi) >> 1
    if (rows[mid] < i) lo = mid + 1
    else hi = mid
  }
  if (dir === 1) return rows[lo] === i ? lo + 1 : lo
  return lo - 1
}

function TimelineView({ runRef, data }: { runRef: RunRef; data: TimelineResponse }) {
  const prepared = useMemo(() => prepare(data.events), [data.events])
  const [compress, setCompress] = useState(true)
  const axis = useMemo(() => buildTimeAxis(prepared.times, compress), [prepared, compress])
  const possibleGaps = useMemo(() => buildTimeAxis(prepared.times, true).gaps.length, [prepared])
  const [kinds, setKinds] = useQueryState('kinds', parseAsArrayOf(parseAsStringLiteral(KIND_ORDER)))
  const [eventId, setEventId] = useQueryState('event', parseAsString)
  const [zoom, setZoom] = useState<[number, number] | null>(null)
  const headingRef = useRef<HTMLHeadingElement>(null)

  const shownKinds = useMemo(() => new Set<TimelineKind>(kinds ?? prepared.lanes), [kinds, prepared.lanes])
  const rows = useMemo(() => {
    const out: number[] = []
    prepared.events.forEach((e, i) => {
      if (shownKinds.has(e.kind)) out.push(i)
    })
    return out
  }, [prepared, shownKinds])
  const tags = useMemo(() => resumeTags(data.events, data.resumes), [data])

  const selectedIndex = eventId ? (prepared.indexById.get(eventId) ?? null) : null
  const selectedRow =
    selectedIndex === null
      ? -1
      : (() => {
          const r = neighbourRow(rows, selectedIndex, -1) + 1
          return rows[r] === selectedIndex ? r : -1
        })()
  const selected = selectedIndex === null ? null : prepared.events[selectedIndex]

  const full = axis.domain
  const view: [number, number] = zoom
    ? [Math.max(full[0], axis.toX(zoom[0])), Math.min(full[1], axis.toX(zoom[1]))]
    : full
  const marks = useMemo(
    () => marksFor(prepared, axis, (i) => shownKinds.has(prepared.events[i].kind), view),
    // view is derived from zoom and axis each render; its bounds are what matter.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [prepared, axis, shownKinds, view[0], view[1]],
  )

  const selectRow = (row: number) => {
    const i = rows[row]
    if (i !== undefined) void setEventId(prepared.events[i].id)
  }
  const step = (dir: 1 | -1) => {
    if (rows.length === 0) return
    if (selectedIndex === null) return selectRow(dir === 1 ? 0 : rows.length - 1)
    const next = selectedRow >= 0 ? selectedRow + dir : neighbourRow(rows, selectedIndex, dir)
    selectRow(Math.min(rows.length - 1, Math.max(0, next)))
  }

  const bodyRef = useRef<HTMLDivElement>(null)
  const closePayload = () => {
    // Focus inside the closing panel would fall to the page's start: it goes back to the list instead.
    const body = bodyRef.current
    if (body?.querySelector(`.${styles.payload}`)?.contains(document.activeElement))
      body.querySelector<HTMLElement>('[role="listbox"]')?.focus()
    void setEventId(null)
  }

  // Registered before the browser paints: a key pressed right after a change shows (the panel
  // opening) must meet the handler that knows about it, not the one from the render before.
  useLayoutEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented || e.ctrlKey || e.metaKey || e.altKey || isTyping(e.target)) return
      if (e.key === 'Escape') {
        // A dialog above the page takes its own Escape.
        if (!selected || document.querySelector('dialog[open]')) return
        e.preventDefault()
        closePayload()
        return
      }
      const k = e.key.toLowerCase()
      if (k !== 'j' && k !== 'k') return
      e.preventDefault()
      step(k === 'j' ? 1 : -1)
    }
    document.addEventListener('keydown', onKey)
    return () => document.removeEventListener('keydown', onKey)
  })

  const setView = (a: number, b: number) => {
    const minWidth = Math.max((full[1] - full[0]) / 20_000, 20)
    if (b - a < minWidth) {
      const mid = (a + b) / 2
      a = mid - minWidth / 2
      b = mid + minWidth / 2
    }
    a = Math.max(full[0], a)
    b = Math.min(full[1], b)
    setZoom(a <= full[0] && b >= full[1] ? null : [axis.fromX(a), axis.fromX(b)])
  }
  const zoomBy = (factor: number) => {
    const selX = selectedIndex === null ? null : axis.toX(prepared.times[selectedIndex])
    const centre = selX !== null && selX >= view[0] && selX <= view[1] ? selX : (view[0] + view[1]) / 2
    const half = (view[1] - view[0]) / 2 / factor
    let a = centre - half
    let b = centre + half
    if (a < full[0]) [a, b] = [full[0], b + (full[0] - a)]
    if (b > full[1]) [a, b] = [a - (b - full[1]), full[1]]
    setView(a, b)
  }
  const pan = (dir: 1 | -1) => {
    const w = view[1] - view[0]
    const shift = Math.min(Math.max(w * 0.4 * dir, full[0] - view[0]), full[1] - view[1])
    setView(view[0] + shift, view[1] + shift)
  }
  const zoomed = zoom !== null
  const toggleKind = (k: TimelineKind) => {
    const next = new Set(shownKinds)
    if (next.has(k)) next.delete(k)
    else next.add(k)
    void setKinds(next.size === prepared.lanes.length ? null : KIND_ORDER.filter((x) => next.has(x)))
  }
  const spanMs = prepared.times[prepared.times.length - 1] - prepared.times[0]

  return (
    <div className="stack">
      <section className={`panel stack ${styles.chartPanel}`} aria-label="Swimlane chart">
        <div className={`row ${styles.toolbar}`}>
          <h2 className={styles.title}>
            {count(data.events.length)} events
            <span className="muted small">
              {' '}
              over {duration(spanMs)}
              {data.resumes.length ? ` · ${data.resumes.length} resume point${data.resumes.length > 1 ? 's' : ''}` : ''}
            </span>
          </h2>
          <span className="spacer" />
          <label
            className={styles.switch}
            title={
              possibleGaps
                ? 'Cut idle gaps much longer than the run’s usual spacing down to a fixed width'
                : 'No idle gap is long enough to compress'
            }
          >
            <input
              type="checkbox"
              checked={compress}
              disabled={!possibleGaps}
              onChange={(e) => {
                setCompress(e.target.checked)
                setZoom(null)
              }}
            />
            Compress idle gaps{possibleGaps ? ` (${possibleGaps})` : ''}
          </label>
          <div className={styles.zoom} role="group" aria-label="Zoom">
            <Button size="small" onClick={() => pan(-1)} disabled={!zoomed || view[0] <= full[0]} aria-label="Pan left">
              ◀
            </Button>
            <Button size="small" onClick={() => zoomBy(0.5)} disabled={!zoomed} aria-label="Zoom out">
              −
            </Button>
            <Button size="small" onClick={() => zoomBy(2)} aria-label="Zoom in">
              +
            </Button>
            <Button size="small" onClick={() => pan(1)} disabled={!zoomed || view[1] >= full[1]} aria-label="Pan right">
              ▶
            </Button>
            <Button size="small" onClick={() => setZoom(null)} disabled={!zoomed}>
              Reset zoom
            </Button>
          </div>
        </div>
        {data.attemptsText ? <p className="small">{data.attemptsText}</p> : null}
        <TimelineChart
          prepared={prepared}
          axis={axis}
          view={view}
          marks={marks}
          resumes={data.resumes}
          selectedIndex={selectedIndex}
          onSelect={(id) => void setEventId(id)}
          onZoom={setView}
        />
        <p className={`small muted ${styles.hint}`}>
          Drag across the chart to zoom in. Click a mark or a row to see its payload; <kbd>J</kbd> / <kbd>K</kbd> move
          to the next / previous event, <kbd>Esc</kbd> closes the payload.
        </p>
      </section>

      <div className={`row ${styles.chips}`} role="group" aria-label="Filter events by kind">
        {prepared.lanes.map((k) => (
          <button
            key={k}
            type="button"
            className={`${styles.chip} ${KIND_CLASS[k]}`}
            aria-pressed={shownKinds.has(k)}
            onClick={() => toggleKind(k)}
            title={`${shownKinds.has(k) ? 'Hide' : 'Show'} ${KIND_LABEL[k]}`}
          >
            <span className={styles.dot} aria-hidden />
            {k}
            <span className="count">{count(prepared.counts.get(k) ?? 0)}</span>
          </button>
        ))}
        {kinds ? (
          <Button variant="ghost" size="small" onClick={() => void setKinds(null)}>
            Show all
          </Button>
        ) : null}
        <span className="spacer" />
        <span className="small muted" role="status">
          {rows.length === data.events.length
            ? `${count(rows.length)} events`
            : `${count(rows.length)} of ${count(data.events.length)} events shown`}
        </span>
      </div>

      {eventId && !selected ? (
        <div className="banner banner-info" role="status">
          <span>
            Event <code>{eventId}</code> is not in this run&apos;s timeline (any more).
          </span>
          <Button onClick={() => void setEventId(null)}>Clear</Button>
        </div>
      ) : null}

      <div ref={bodyRef} className={selected ? `${styles.body} ${styles.hasPayload}` : styles.body}>
        {rows.length === 0 ? (
          <EmptyState title="Every kind is filtered out">Turn a kind back on above to see its events.</EmptyState>
        ) : (
          <TimelineList
            prepared={prepared}
            rows={rows}
            selectedRow={selectedRow}
            tags={tags}
            onSelectRow={selectRow}
            onOpen={() => headingRef.current?.focus()}
          />
        )}
        {selected ? (
          <TimelinePayload
            runRef={runRef}
            event={selected}
            resumeTag={tags.get(selected.id)}
            position={selectedRow >= 0 ? { index: selectedRow, total: rows.length } : null}
            onClose={closePayload}
            headingRef={headingRef}
          />
        ) : null}
      </div>
    </div>
  )
}
