'use client'

import { useId, type ComponentProps, type ReactNode } from 'react'
import {
  Bar,
  BarChart,
  BarStack,
  CartesianGrid,
  Rectangle,
  ReferenceLine,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
  type BarShapeProps,
  type TooltipContentProps,
  type XAxisProps,
} from 'recharts'
import { count } from '@/lib/format'
import { links } from '@/lib/links'
import type { ConsoleEvent, RunsAnalytics } from '@/lib/api/types'
import { withFlag, type RunsFilters } from '@/lib/runs-search'
import { CountLink } from './count-link'
import {
  bucketTick,
  bucketTitle,
  eventsByBucket,
  eventsText,
  presentStatuses,
  sizeLabel,
  statusColor,
  statusRows,
} from './summary-model'
import { dotColor } from './dot-color'
import styles from './runs-summary.module.css'
import { peaks, peakSentence } from './chart-peak'

const CHART_HEIGHT = 132
const AXIS = { stroke: 'var(--border)', tick: { fill: 'var(--muted)', fontSize: 11 }, tickLine: false } as const
const MARGIN = { top: 6, right: 6, bottom: 0, left: -14 }

function TooltipBox({ title, rows }: { title: string; rows: { label: string; value: string; color?: string }[] }) {
  return (
    <div className={`chart-tooltip ${styles.tooltip}`}>
      <div className={styles.tooltipTitle}>{title}</div>
      {rows.map((r) => (
        <div key={r.label} className={styles.tooltipRow}>
          {r.color ? <span className={styles.dot} style={dotColor(r.color)} aria-hidden /> : null}
          <span>{r.label}</span>
          <span className={styles.tooltipValue}>{r.value}</span>
        </div>
      ))}
    </div>
  )
}

/**
 * A titled card holding one chart. The drawing is an image named by `label`, described by `summary`
 * in words (the figures a screen reader cannot get from the bars, since the tooltip needs a mouse).
 */
export function ChartCard({
  title,
  legend,
  legendLabel,
  note,
  label,
  summary,
  children,
  className,
}: {
  title: string
  /** The legend's items (`li`s), and what the legend lists when it needs saying. */
  legend?: ReactNode
  legendLabel?: string
  /** A line under the legend (what changed in the chart's period). */
  note?: ReactNode
  label: string
  summary: string
  children: ReactNode
  className?: string
}) {
  const summaryId = useId()
  return (
    <figure className={className ? `${styles.card} ${className}` : styles.card}>
      <figcaption className={styles.cardHead}>
        <h3>{title}</h3>
        {legend ? (
          <ul className={styles.legend} aria-label={legendLabel}>
            {legend}
          </ul>
        ) : null}
        {note}
      </figcaption>
      <div role="img" aria-label={label} aria-describedby={summaryId}>
        {children}
      </div>
      <p id={summaryId} className="sr-only">
        {summary}
      </p>
    </figure>
  )
}

/**
 * A chart card drawing a bar chart of `data`, with the grid, count axis and tooltip every bar chart
 * here shares: `x` is its category axis, `layout` the chart's bar spacing, the children its bars.
 */
function BarChartCard({
  data,
  layout,
  x,
  tooltip,
  children,
  ...card
}: Omit<ComponentProps<typeof ChartCard>, 'children'> & {
  data: ComponentProps<typeof BarChart>['data']
  layout: Pick<ComponentProps<typeof BarChart>, 'barGap' | 'barCategoryGap'>
  x: XAxisProps
  tooltip: ComponentProps<typeof Tooltip>['content']
  children: ReactNode
}) {
  return (
    <ChartCard {...card}>
      <ResponsiveContainer width="100%" height={CHART_HEIGHT}>
        <BarChart data={data} margin={MARGIN} accessibilityLayer={false} {...layout}>
          <CartesianGrid vertical={false} stroke="var(--border)" strokeDasharray="2 4" />
          <XAxis {...x} {...AXIS} />
          <YAxis {...AXIS} allowDecimals={false} width={42} />
          <Tooltip content={tooltip} cursor={{ fill: 'var(--panel-2)' }} isAnimationActive={false} />
          {children}
        </BarChart>
      </ResponsiveContainer>
    </ChartCard>
  )
}

/** A legend item: the series' colour and its count, linked to the runs it counts. */
function LegendLink({
  color,
  href,
  title,
  children,
}: {
  color: string
  href: string
  title?: string
  children: ReactNode
}) {
  return (
    <li>
      <span className={styles.dot} style={dotColor(color)} aria-hidden />
      <CountLink href={href} title={title}>
        {children}
      </CountLink>
    </li>
  )
}

const plural = (n: number, one: string, many = `${one}s`) => `${count(n)} ${n === 1 ? one : many}`

/** The largest of `items` by `value`, or null when every value is 0. */
export function StatusChart({
  data,
  filters = {},
  events = [],
}: {
  data: RunsAnalytics
  filters?: RunsFilters
  events?: ConsoleEvent[]
}) {
  const { unit } = data.statusOverTime
  const statuses = presentStatuses(data.totals.byStatus)
  const rows = statusRows(data)
  const changes = eventsByBucket(
    rows.map((r) => r.start),
    events,
    unit,
  )
  const changed = [...changes.values()].flat()
  const tooltip = ({ active, payload }: TooltipContentProps) => {
    const row = active ? (payload?.[0]?.payload as (typeof rows)[number] | undefined) : undefined
    if (!row) return null
    return (
      <TooltipBox
        title={bucketTitle(row.start, unit)}
        rows={[
          ...statuses
            .filter((s) => Number(row[s] ?? 0) > 0)
            .reverse()
            .map((s) => ({ label: s, value: count(Number(row[s])), color: statusColor(s) })),
          { label: 'total', value: count(row.total) },
          ...(changes.get(row.start) ?? [])
            .slice(0, 3)
            .map((e) => ({ label: e.kind, value: e.summary, color: 'var(--accent)' })),
        ]}
      />
    )
  }
  const busiest = peaks(rows, (r) => r.total)
  const summary = [
    `${plural(data.totals.runs, 'run')} over ${plural(rows.length, unit)}: ${statuses.map((st) => `${count(data.totals.byStatus[st])} ${st}`).join(', ')}.`,
    busiest.length
      ? peakSentence(
          busiest.map((r) => bucketTitle(r.start, unit)),
          plural(busiest[0].total, 'run'),
          { lead: `Most started in the ${unit}${busiest.length > 1 ? 's' : ''} of`, unit, units: `${unit}s` },
        )
      : '',
    changed.length ? `Marked: ${eventsText(changed)} by operators or setup in this period.` : '',
  ].join(' ')
  return (
    <BarChartCard
      className={styles.cardWide}
      title={`Runs per ${unit}`}
      label={`Runs per ${unit} of their start time, stacked by run state`}
      summary={summary}
      legendLabel="Run counts by state"
      legend={statuses.map((s) => (
        <LegendLink key={s} color={statusColor(s)} href={links.runsList({ ...filters, status: s })}>
          {s} <strong>{count(data.totals.byStatus[s])}</strong>
        </LegendLink>
      ))}
      note={
        changed.length ? (
          <p
            className={`small flush ${styles.changes}`}
            data-testid="chart-changes"
            title={changed
              .slice(0, 10)
              .map((e) => `${e.at.slice(0, 16).replace('T', ' ')} ${e.summary}`)
              .join('\n')}
          >
            <span className={styles.changeMark} aria-hidden />
            <CountLink href={links.audit({ org: filters.org, namespace: filters.namespace, agent: filters.agent })}>
              changed: <strong>{eventsText(changed)}</strong>
            </CountLink>
          </p>
        ) : null
      }
      data={rows}
      layout={{ barCategoryGap: rows.length > 40 ? 1 : '18%' }}
      x={{ dataKey: 'start', tickFormatter: (v: string) => bucketTick(v, unit), minTickGap: 18 }}
      tooltip={tooltip}
    >
      <BarStack radius={[3, 3, 0, 0]}>
        {statuses.map((s) => (
          <Bar key={s} dataKey={s} name={s} fill={statusColor(s)} isAnimationActive={false} />
        ))}
      </BarStack>
      {[...changes.keys()].map((start) => (
        <ReferenceLine key={start} x={start} stroke="var(--accent)" strokeDasharray="3 3" ifOverflow="extendDomain" />
      ))}
    </BarChartCard>
  )
}

const dayTick = (day: string) => bucketTick(`${day}T00:00:00Z`, 'day')

export function ResumesChart({ data, filters = {} }: { data: RunsAnalytics; filters?: RunsFilters }) {
  const { days, resumedRuns, extraAttempts } = data.resumes
  const tooltip = ({ active, payload }: TooltipContentProps) => {
    const d = active ? (payload?.[0]?.payload as (typeof days)[number] | undefined) : undefined
    if (!d) return null
    return (
      <TooltipBox
        title={bucketTitle(`${d.day}T00:00:00Z`, 'day')}
        rows={[
          { label: 'runs resumed', value: count(d.resumedRuns), color: 'var(--warn)' },
          { label: 'extra attempts', value: count(d.extraAttempts), color: 'var(--accent)' },
        ]}
      />
    )
  }
  const busiest = peaks(days, (d) => d.resumedRuns)
  const summary = [
    `${plural(resumedRuns, 'run')} resumed over ${plural(days.length, 'day')}, with ${plural(extraAttempts, 'extra attempt')}.`,
    busiest.length
      ? peakSentence(
          busiest.map((d) => bucketTitle(`${d.day}T00:00:00Z`, 'day')),
          plural(busiest[0].resumedRuns, 'run'),
          { lead: 'Most on', unit: 'day', units: 'days' },
        )
      : '',
  ].join(' ')
  return (
    <BarChartCard
      title="Resumes per day"
      label="Runs resumed per day of their latest begin, and their extra attempts"
      summary={summary}
      legend={
        <>
          <LegendLink color="var(--warn)" href={links.runsList(withFlag(filters, 'resumed'))}>
            resumed <strong>{count(resumedRuns)}</strong>
          </LegendLink>
          <LegendLink
            color="var(--accent)"
            href={links.runsList(withFlag(filters, 'resumed'))}
            title="The resumed runs, whose later attempts these are"
          >
            extra attempts <strong>{count(extraAttempts)}</strong>
          </LegendLink>
        </>
      }
      data={days}
      layout={{ barGap: 1, barCategoryGap: '22%' }}
      x={{ dataKey: 'day', tickFormatter: dayTick, minTickGap: 18 }}
      tooltip={tooltip}
    >
      <Bar dataKey="resumedRuns" fill="var(--warn)" radius={[3, 3, 0, 0]} maxBarSize={18} isAnimationActive={false} />
      <Bar
        dataKey="extraAttempts"
        fill="var(--accent)"
        radius={[3, 3, 0, 0]}
        maxBarSize={18}
        isAnimationActive={false}
      />
    </BarChartCard>
  )
}

/** The last tenth (at or near char_limit) stands out. */
const sizeBar = (props: BarShapeProps) => (
  <Rectangle {...props} fill={(props.payload as { fromPct: number }).fromPct >= 90 ? 'var(--warn)' : 'var(--accent)'} />
)

export function SizesChart({ data, filters = {} }: { data: RunsAnalytics; filters?: RunsFilters }) {
  const s = data.checkpointSizes
  const tooltip = ({ active, payload }: TooltipContentProps) => {
    const b = active ? (payload?.[0]?.payload as (typeof s.buckets)[number] | undefined) : undefined
    if (!b) return null
    return (
      <TooltipBox
        title={`${sizeLabel(b.fromPct, b.toPct)} of char_limit`}
        rows={[{ label: 'runs', value: count(b.runs) }]}
      />
    )
  }
  const filled = s.buckets.filter((b) => b.runs > 0)
  const summary = [
    `${plural(s.runs, 'checkpoint')} by size against char_limit:`,
    filled.length ? `${filled.map((b) => `${sizeLabel(b.fromPct, b.toPct)}: ${count(b.runs)}`).join(', ')}.` : 'none.',
    s.overLimit ? `${count(s.overLimit)} over the limit.` : '',
    s.cleared ? `${count(s.cleared)} cleared.` : '',
  ].join(' ')
  return (
    <BarChartCard
      title="Checkpoint size vs char_limit"
      label="Runs by the size of their latest checkpoint, in tenths of its char_limit"
      summary={summary}
      legend={
        <>
          <li>
            <strong>{count(s.runs)}</strong> checkpoints
          </li>
          {s.nearLimit > 0 ? (
            <li>
              <CountLink href={links.runsList(withFlag(filters, 'near_limit'))}>
                <strong className="text-warn">{count(s.nearLimit)}</strong> ≥ 90%
              </CountLink>
            </li>
          ) : null}
          {s.overLimit > 0 ? (
            <li>
              <CountLink
                href={links.runsList(withFlag(filters, 'near_limit'))}
                title="Listed with the runs near their limit (90% or more)"
              >
                <strong className="text-bad">{count(s.overLimit)}</strong> over
              </CountLink>
            </li>
          ) : null}
          {s.cleared > 0 ? (
            <li>
              <strong>{count(s.cleared)}</strong> cleared
            </li>
          ) : null}
        </>
      }
      data={s.buckets}
      layout={{ barCategoryGap: '12%' }}
      x={{ dataKey: 'fromPct', tickFormatter: (v: number) => `${v}%`, interval: 1 }}
      tooltip={tooltip}
    >
      <Bar dataKey="runs" radius={[3, 3, 0, 0]} isAnimationActive={false} shape={sizeBar} />
    </BarChartCard>
  )
}
