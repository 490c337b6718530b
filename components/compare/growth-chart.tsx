'use client'

import {
  CartesianGrid,
  Legend,
  Line,
  LineChart,
  ReferenceDot,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts'
import type { CompareSide } from '@/lib/api/types'
import { count, duration } from '@/lib/format'

const AXIS = { stroke: 'var(--border)', tick: { fill: 'var(--muted)', fontSize: 11 }, tickLine: false } as const
const COLOR = { A: 'var(--accent)', B: 'var(--warn)' } as const

/** Minutes since the run started, and the size of each checkpoint version (a tombstone is 0). */
function points(side: CompareSide) {
  const start = Date.parse(side.run.startedAt)
  return side.checkpoints.map((c) => ({
    t: Math.max(0, (Date.parse(c.at) - start) / 60_000),
    chars: c.isDeleted ? 0 : c.chars,
    version: c.version,
  }))
}

const minutesText = (m: number) => (m < 1 ? `${Math.round(m * 60)} s` : duration(m * 60_000))

/** Checkpoint size over time since each run's start, A and B on one chart; resume points as dots. */
export function GrowthChart({ a, b }: { a: CompareSide; b: CompareSide | null }) {
  const sides = [{ letter: 'A' as const, side: a }, ...(b ? [{ letter: 'B' as const, side: b }] : [])]
  const series = sides.map((s) => ({ ...s, data: points(s.side) }))
  if (series.every((s) => s.data.length === 0)) return <p className="small muted">Neither run wrote a checkpoint.</p>
  const summary = series
    .map(({ letter, side, data }) =>
      data.length
        ? `${letter}: ${data.length} version${data.length === 1 ? '' : 's'} over ${minutesText(data[data.length - 1].t)}, ending at ${count(data[data.length - 1].chars)} characters; ${side.resumes.length} resume${side.resumes.length === 1 ? '' : 's'}.`
        : `${letter}: no checkpoint.`,
    )
    .join(' ')
  return (
    <figure className="flush" aria-label="Checkpoint size over time since each run started">
      <ResponsiveContainer width="100%" height={180}>
        <LineChart margin={{ top: 6, right: 12, bottom: 0, left: -8 }} accessibilityLayer={false}>
          <CartesianGrid stroke="var(--border)" strokeDasharray="2 4" />
          <XAxis
            type="number"
            dataKey="t"
            {...AXIS}
            domain={[0, 'dataMax']}
            tickFormatter={(m: number) => minutesText(m)}
          />
          <YAxis type="number" dataKey="chars" {...AXIS} width={52} allowDecimals={false} />
          <Tooltip
            isAnimationActive={false}
            formatter={(v) => [`${count(Number(v))} chars`, '']}
            labelFormatter={(m) => `+${minutesText(Number(m))}`}
            contentStyle={{ background: 'var(--panel)', border: '1px solid var(--border)', color: 'var(--text)' }}
          />
          <Legend wrapperStyle={{ fontSize: 12 }} />
          {series.map(({ letter, data }) => (
            <Line
              key={letter}
              data={data}
              dataKey="chars"
              name={`${letter}: chars`}
              stroke={COLOR[letter]}
              dot={{ r: 2 }}
              type="stepAfter"
              isAnimationActive={false}
            />
          ))}
          {series.flatMap(({ letter, side }) =>
            side.resumes.map((p) => {
              const t = Math.max(0, (Date.parse(p.at) - Date.parse(side.run.startedAt)) / 60_000)
              const before = points(side)
                .filter((x) => x.t <= t)
                .pop()
              return (
                <ReferenceDot
                  key={`${letter}-${p.at}`}
                  x={t}
                  y={before?.chars ?? 0}
                  r={5}
                  fill="none"
                  stroke={COLOR[letter]}
                  strokeWidth={2}
                  ifOverflow="extendDomain"
                />
              )
            }),
          )}
        </LineChart>
      </ResponsiveContainer>
      <figcaption className="sr-only">{summary}</figcaption>
      <p className="small muted flush" aria-hidden>
        {summary} Circles mark resumes.
      </p>
    </figure>
  )
}
