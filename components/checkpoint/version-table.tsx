'use client'

import { useEffect, useState } from 'react'
import { count, percent } from '@/lib/format'
import { TimeAgo } from '../ui/time-ago'
import { Tag, type TagTone } from '../ui/badge'
import { isOperatorActor } from '@/lib/resume/rows'
import { sourceLabel, sourceTitle, type VersionEntry, type VersionSource } from './version-rows'
import ck from './versions.module.css'
import { buttonClass } from '../ui/button'
import { TableHead, type Column } from '../ui/table-head'
import { useVirtualRows } from '../ui/use-virtual-rows'
import { bindText } from '../ui/bind-text'

const SOURCE_TONE: Record<VersionSource, TagTone> = { history: 'accent', physical: 'warning', both: 'ok' }

const COLUMNS: readonly Column[] = [
  { label: 'A', title: 'Compare from (A)' },
  { label: 'B', title: 'Compare to (B)' },
  ...['version', 'updated', 'actor', 'source_trace', 'part'],
  { label: 'source', title: 'Where the version was found: the captured history, the physical rows, or both' },
  { label: 'chars', className: 'num' },
  'change',
]

/** Column widths in px, in COLUMNS' order; the last column, the change, takes the rest. */
const COLUMN_WIDTHS = [30, 30, 190, 112, 124, 140, 110, 76, 60]

const ROW_HEIGHT = 38
const MAX_HEIGHT = 460
const HEADER_HEIGHT = 36

type Props = {
  entries: VersionEntry[]
  a: string | null
  b: string | null
  onCompare: (a: string | null, b: string | null) => void
}

/** The radio that picks a version as one side (A or B) of the comparison. */
function PickCell({
  side,
  label,
  checked,
  onPick,
}: {
  side: 'a' | 'b'
  label: string
  checked: boolean
  onPick: () => void
}) {
  return (
    <td className={ck.radio}>
      <input type="radio" name={`ck-compare-${side}`} aria-label={label} checked={checked} onChange={onPick} />
    </td>
  )
}

function Row({ e, a, b, onCompare }: { e: VersionEntry } & Omit<Props, 'entries'>) {
  const pct = percent(e.block.chars, e.block.charLimit)
  return (
    <tr
      data-version={e.id}
      className={[e.id === b ? ck.rowB : '', e.id === a ? ck.rowA : '', e.block.isDeleted ? ck.rowTomb : ''].join(' ')}
      style={{ height: ROW_HEIGHT }}
    >
      <PickCell side="a" label={`Compare from v${e.id} (A)`} checked={e.id === a} onPick={() => onCompare(e.id, b)} />
      <PickCell side="b" label={`Compare to v${e.id} (B)`} checked={e.id === b} onPick={() => onCompare(a, e.id)} />
      <td className="mono">
        <span className={ck.ver}>
          <strong>v{e.id}</strong>
          {e.isFinal ? (
            <Tag tone="ok" className={ck.final} title="The row SELECT … FINAL returns: what a resume reads">
              FINAL
            </Tag>
          ) : null}
          {e.block.isDeleted ? (
            <Tag tone="warning" title="is_deleted = 1: a resume reading this returns None">
              tombstone
            </Tag>
          ) : null}
        </span>
      </td>
      <td className={ck.ellipsis}>
        <TimeAgo iso={e.block.updatedAt} />
      </td>
      <td className={isOperatorActor(e.block.actor) ? `${ck.ellipsis} ${ck.op}` : ck.ellipsis} title={e.block.actor}>
        {e.block.actor}
      </td>
      <td className={`mono ${ck.ellipsis}`} title={e.block.sourceTrace}>
        {e.block.sourceTrace || '—'}
      </td>
      <td className={`mono ${ck.ellipsis} small`} title={e.part ?? 'merged away: no longer a physical row'}>
        {e.part ?? <span className="muted">—</span>}
      </td>
      <td>
        <Tag tone={SOURCE_TONE[e.source]} title={sourceTitle(e.source)}>
          {sourceLabel(e.source)}
        </Tag>
      </td>
      <td
        className={pct >= 100 ? 'num text-bad' : pct >= 90 ? 'num text-warn' : 'num'}
        title={`${count(e.block.chars)} of ${count(e.block.charLimit)} characters`}
      >
        {count(e.block.chars)}
      </td>
      <td className={ck.ellipsis} title={e.change}>
        {e.change}
      </td>
    </tr>
  )
}

/** Every version newest first, virtualized so runs with thousands of versions stay fast. */
export function VersionTable({ entries, a, b, onCompare }: Props) {
  const [jump, setJump] = useState('')
  const [jumpError, setJumpError] = useState<string | null>(null)
  // A table's rows stay in its flow: the rows in view sit between two spacer rows rather than at
  // offsets (no rowProps), and every row is ROW_HEIGHT high, so none is measured.
  const {
    scrollRef,
    virtualizer,
    rows: items,
  } = useVirtualRows({
    count: entries.length,
    estimateSize: () => ROW_HEIGHT,
    overscan: 12,
    // The sticky header sits above the first row, inside the scroll element.
    scrollMargin: HEADER_HEIGHT,
    scrollPaddingStart: HEADER_HEIGHT,
  })

  const bIndex = b === null ? -1 : entries.findIndex((e) => e.id === b)
  useEffect(() => {
    if (bIndex >= 0) virtualizer.scrollToIndex(bIndex, { align: 'auto' })
  }, [bIndex, virtualizer])

  const top = items.length ? items[0].start - HEADER_HEIGHT : 0
  const bottom = items.length ? virtualizer.getTotalSize() - (items[items.length - 1].end - HEADER_HEIGHT) : 0
  const height = Math.min(MAX_HEIGHT, HEADER_HEIGHT + entries.length * ROW_HEIGHT + 2)

  function goTo(event: React.FormEvent) {
    event.preventDefault()
    const want = jump.trim().replace(/^v/i, '')
    const i = entries.findIndex((e) => e.id === want || e.block.version === want)
    if (i < 0) {
      setJumpError(`No v${want}`)
      return
    }
    setJumpError(null)
    virtualizer.scrollToIndex(i, { align: 'center' })
    onCompare(entries[i + 1]?.id ?? null, entries[i].id)
  }

  return (
    <div className="stack gap-8">
      {entries.length > 12 ? (
        <form className={`row ${ck.jump}`} onSubmit={goTo} role="search" aria-label="Jump to a version">
          <label className="row gap-6">
            <span className="small muted">Jump to version</span>
            <input
              {...bindText(jump, setJump)}
              inputMode="numeric"
              placeholder="e.g. 121"
              size={8}
              aria-label="Version number"
            />
          </label>
          <button type="submit" className={buttonClass()}>
            Show
          </button>
          {jumpError ? (
            <span className="small text-bad" role="status">
              {jumpError}
            </span>
          ) : null}
          <span className="small muted">
            Selects it as B and the version before it as A. Or pick A and B in the first two columns.
          </span>
        </form>
      ) : null}
      <div
        ref={scrollRef}
        className={ck.vscroll}
        style={{ height }}
        tabIndex={0}
        role="region"
        aria-label={`Versions, ${entries.length} rows, newest first (scrollable)`}
      >
        <table className={`data ${ck.versions}`} aria-label="Versions" aria-rowcount={entries.length + 1}>
          <colgroup>
            {COLUMNS.map((_, i) => (
              <col key={i} style={{ width: COLUMN_WIDTHS[i] }} />
            ))}
          </colgroup>
          <TableHead columns={COLUMNS} style={{ height: HEADER_HEIGHT }} />
          <tbody>
            {top > 0 ? <tr aria-hidden style={{ height: top }} /> : null}
            {items.map((it) => (
              <Row key={entries[it.index].id} e={entries[it.index]} a={a} b={b} onCompare={onCompare} />
            ))}
            {bottom > 0 ? <tr aria-hidden style={{ height: bottom }} /> : null}
          </tbody>
        </table>
      </div>
    </div>
  )
}
