'use client'

import { Bar, BarChart, Cell, LabelList, ResponsiveContainer, XAxis, YAxis } from 'recharts'
import type { SearchHit } from '@/lib/api/types'

/** One search's hits as bars of their scores; hits the run went on to use are coloured. */
export function HitsChart({ hits }: { hits: SearchHit[] }) {
  const max = Math.max(1, ...hits.map((h) => h.score))
  const height = hits.length * 28 + 16
  return (
    <div
      role="img"
      aria-label={`Scores of ${hits.length} hits: ${hits.map((h) => `${h.memoryKey} ${h.score.toFixed(3)}`).join(', ')}`}
    >
      <ResponsiveContainer width="100%" height={height}>
        <BarChart data={hits} layout="vertical" margin={{ top: 4, right: 48, bottom: 4, left: 4 }} barCategoryGap={6}>
          <XAxis type="number" domain={[0, max]} hide />
          <YAxis
            type="category"
            dataKey="memoryKey"
            width={200}
            tickLine={false}
            axisLine={false}
            interval={0}
            tick={{ fill: 'var(--text)', fontSize: 11.5 }}
            tickFormatter={(k: string) => (k.length > 30 ? `${k.slice(0, 29)}…` : k)}
          />
          <Bar
            dataKey="score"
            isAnimationActive={false}
            radius={[0, 4, 4, 0]}
            background={{ fill: 'var(--panel-2)', radius: 4 }}
          >
            {hits.map((h) => (
              <Cell key={h.memoryKey} fill={h.usedByRun ? 'var(--sr-used)' : 'var(--sr-hit)'} />
            ))}
            <LabelList
              dataKey="score"
              position="right"
              formatter={(v) => (typeof v === 'number' ? v.toFixed(3) : String(v ?? ''))}
              fill="var(--muted)"
              fontSize={11}
            />
          </Bar>
        </BarChart>
      </ResponsiveContainer>
    </div>
  )
}
