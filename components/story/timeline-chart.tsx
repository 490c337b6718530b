'use client'

import { useState, type PointerEvent as ReactPointerEvent } from 'react'
import {
  CartesianGrid,
  ReferenceArea,
  ReferenceDot,
  ReferenceLine,
  ResponsiveContainer,
  Scatter,
  ScatterChart,
  Tooltip,
  XAxis,
  YAxis,
  usePlotArea,
  useXAxisInverseScale,
  type TooltipContentProps,
} from 'recharts'
import type { ScatterShapeProps } from 'recharts/types/util/ScatterUtils'
import type { ResumePoint } from '@/lib/resume/types'
import {
  KIND_LABEL,
  axisTicks,
  clockLabel,
  crossesDay,
  kindColor,
  resumeLabel,
  resumeShortLabel,
  rowTime,
  type Mark,
  type Prepared,
  type TimeAxis,
} from './timeline-model'
import styles from './timeline.module.css'

type Props = {
  prepared: Prepared
  axis: TimeAxis
  /** Visible x range (axis units). */
  view: [number, number]
  marks: Mark[]
  resumes: ResumePoint[]
  selectedIndex: number | null
  onSelect: (id: string) => void
  /** Zoom to an x range chosen by dragging across the chart. */
  onZoom: (x0: number, x1: number) => void
}

const LANE_HEIGHT = 30
const MIN_DRAG_PX = 6

/** Drag across empty chart space to zoom; marks above it keep their clicks. */
function DragZoom({ onZoom }: { onZoom: (x0: number, x1: number) => void }) {
  const plot = usePlotArea()
  const invert = useXAxisInverseScale()
  const [drag, setDrag] = useState<{ from: number; to: number } | null>(null)
  if (!plot || !invert) return null
  const px = (e: ReactPointerEvent<SVGRectElement>) => {
    const box = e.currentTarget.getBoundingClientRect()
    return Math.min(Math.max(e.clientX - box.left, 0), plot.width) + plot.x
  }
  const finish = () => {
    if (drag && Math.abs(drag.to - drag.from) >= MIN_DRAG_PX) {
      const a = Number(invert(Math.min(drag.from, drag.to)))
      const b = Number(invert(Math.max(drag.from, drag.to)))
      if (Number.isFinite(a) && Number.isFinite(b) && b > a) onZoom(a, b)
    }
    setDrag(null)
  }
  return (
    <g>
      <rect
        x={plot.x}
        y={plot.y}
        width={plot.width}
        height={plot.height}
        fill="transparent"
        className={styles.dragArea}
        data-testid="timeline-drag-area"
        onPointerDown={(e) => {
          if (e.button !== 0) return
          e.currentTarget.setPointerCapture(e.pointerId)
          const at = px(e)
          setDrag({ from: at, to: at })
        }}
        onPointerMove={(e) => {
          if (drag) setDrag({ from: drag.from, to: px(e) })
        }}
        onPointerUp={finish}
        onPointerCancel={() => setDrag(null)}
      />
      {drag ? (
        <rect
          className={styles.brush}
          x={Math.min(drag.from, drag.to)}
          y={plot.y}
          width={Math.abs(drag.to - drag.from)}
          height={plot.height}
          pointerEvents="none"
        />
      ) : null}
    </g>
  )
}

function MarkTooltip({ active, payload }: TooltipContentProps) {
  const m = active ? (payload?.[0]?.payload as Mark | undefined) : undefined
  if (!m) return null
  return (
    <div className={`chart-tooltip ${styles.tooltip}`}>
      <div className={styles.tooltipKind}>
        <span className={styles.dot} style={{ background: kindColor(m.kind) }} aria-hidden /> {m.kind}
        <span className="muted"> · {rowTime(m.at, true)} UTC</span>
      </div>
      <div>{m.label}</div>
      {m.count > 1 ? (
        <div className="muted small">{m.count} events here: zoom in to tell them apart, or click for the first</div>
      ) : null}
    </div>
  )
}

/** One lane per event kind, one mark per event (grouped when too dense), resume points and idle gaps marked. */
export function TimelineChart({ prepared, axis, view, marks, resumes, selectedIndex, onSelect, onZoom }: Props) {
  const { lanes } = prepared
  const height = lanes.length * LANE_HEIGHT + 64
  const span = axis.fromX(view[1]) - axis.fromX(view[0])
  const acrossDays = crossesDay(axis.fromX(view[0]), axis.fromX(view[1]))
  const selected = selectedIndex === null ? null : prepared.events[selectedIndex]
  const selectedX = selectedIndex === null ? null : axis.toX(prepared.times[selectedIndex])

  // Dense lanes get smaller marks so neighbours stay apart; grouped marks grow with their count.
  const base = marks.length / Math.max(lanes.length, 1) > 150 ? 3 : 4.5
  const renderMark = (props: ScatterShapeProps) => {
    const m = props.payload as Mark
    if (props.cx === undefined || props.cy === undefined) return <g />
    const r = m.count > 1 ? Math.min(base + Math.log2(m.count) * 0.7, 7) : base
    return (
      <circle
        className={styles.mark}
        data-testid="timeline-mark"
        data-kind={m.kind}
        data-event-id={m.id}
        data-count={m.count}
        cx={props.cx}
        cy={props.cy}
        r={r}
        fill={kindColor(m.kind)}
        onClick={() => onSelect(m.id)}
      />
    )
  }

  return (
    <figure
      className={styles.chart}
      aria-label={`Swimlane chart: ${marks.length} marks in ${lanes.length} lanes`}
      data-marks={marks.length}
    >
      <ResponsiveContainer width="100%" height={height}>
        <ScatterChart margin={{ top: 26, right: 28, bottom: 4, left: 4 }}>
          {lanes.map((k, i) =>
            i % 2 === 1 ? (
              <ReferenceArea
                key={`band-${k}`}
                y1={i - 0.5}
                y2={i + 0.5}
                fill="var(--panel-2)"
                fillOpacity={1}
                stroke="none"
                ifOverflow="hidden"
              />
            ) : null,
          )}
          <CartesianGrid horizontal={false} stroke="var(--border)" strokeDasharray="2 4" />
          <DragZoom onZoom={onZoom} />
          <XAxis
            type="number"
            dataKey="x"
            domain={view}
            allowDataOverflow
            ticks={axisTicks(view)}
            tickFormatter={(x: number) => clockLabel(axis.fromX(x), span, acrossDays)}
            stroke="var(--border)"
            tick={{ fill: 'var(--muted)', fontSize: 11 }}
            tickLine={false}
            height={24}
            padding={{ left: 10, right: 10 }}
          />
          <YAxis
            type="number"
            dataKey="y"
            domain={[-0.5, lanes.length - 0.5]}
            ticks={lanes.map((_, i) => i)}
            interval={0}
            reversed
            allowDecimals={false}
            tickFormatter={(i: number) => KIND_LABEL[lanes[i]] ?? ''}
            stroke="var(--border)"
            tick={{ fill: 'var(--text)', fontSize: 12 }}
            tickLine={false}
            width={112}
          />
          {axis.gaps.map((g) => (
            <ReferenceArea
              key={`gap-${g.start}`}
              x1={g.x0}
              x2={g.x1}
              fill="var(--tl-gap)"
              fillOpacity={1}
              stroke="none"
              ifOverflow="hidden"
            />
          ))}
          {axis.gaps.map((g) => (
            <ReferenceLine
              key={`gapline-${g.start}`}
              x={(g.x0 + g.x1) / 2}
              stroke="var(--muted)"
              strokeDasharray="4 3"
              ifOverflow="hidden"
              label={{ value: g.label, position: 'top', fill: 'var(--muted)', fontSize: 11 }}
            />
          ))}
          {resumes.map((r) => (
            <ReferenceLine
              key={`resume-${r.at}`}
              x={axis.toX(Date.parse(r.at))}
              data-testid="timeline-resume-line"
              stroke="var(--warn)"
              strokeWidth={2}
              ifOverflow="hidden"
              label={{
                value: resumeShortLabel(r),
                position: 'insideTopLeft',
                fill: 'var(--warn)',
                fontSize: 11,
                fontWeight: 600,
              }}
            />
          ))}
          <Tooltip content={MarkTooltip} cursor={false} isAnimationActive={false} />
          <Scatter data={marks} shape={renderMark} isAnimationActive={false} />
          {selected && selectedX !== null ? (
            <ReferenceDot
              x={selectedX}
              y={prepared.laneOf.get(selected.kind) ?? 0}
              r={9}
              fill="none"
              stroke="var(--accent)"
              strokeWidth={2.5}
              ifOverflow="hidden"
            />
          ) : null}
        </ScatterChart>
      </ResponsiveContainer>
      {resumes.length ? (
        <figcaption>
          <ul className={styles.resumeKey} aria-label="Resume markers">
            {resumes.map((r) => (
              <li key={`key-${r.at}`}>
                <span className={`mono ${styles.time}`}>{rowTime(r.at, acrossDays)}</span> <span>{resumeLabel(r)}</span>
              </li>
            ))}
          </ul>
        </figcaption>
      ) : null}
    </figure>
  )
}
