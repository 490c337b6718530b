import type { BucketUnit, ConsoleEvent, RunsAnalytics } from '@/lib/api/types'

/** Stacking order, bottom to top: finished runs first, then the ones still going, then the unknown. */
export const STATUS_ORDER = ['succeeded', 'failed', 'cancelled', 'running', 'unknown'] as const

const STATUS_COLOR: Record<string, string> = {
  succeeded: 'var(--ok)',
  failed: 'var(--bad)',
  cancelled: 'var(--warn)',
  running: 'var(--run)',
  unknown: 'var(--unknown)',
}
export const statusColor = (status: string) => STATUS_COLOR[status] ?? 'var(--muted)'

/** Statuses present in the data, known ones in stacking order, any others after them. */
export function presentStatuses(byStatus: Record<string, number>): string[] {
  const known: string[] = STATUS_ORDER.filter((s) => (byStatus[s] ?? 0) > 0)
  const other = Object.keys(byStatus)
    .filter((s) => !(STATUS_ORDER as readonly string[]).includes(s) && byStatus[s] > 0)
    .sort()
  return [...known, ...other]
}

const dayFmt = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', timeZone: 'UTC' })
const hourFmt = new Intl.DateTimeFormat('en-GB', { hour: '2-digit', minute: '2-digit', hour12: false, timeZone: 'UTC' })

/** Axis label: "14:00" within a day, "20 Nov" for a day (and for midnight on an hourly axis). */
export function bucketTick(iso: string, unit: BucketUnit): string {
  const d = new Date(iso)
  if (unit === 'day' || d.getUTCHours() === 0) return dayFmt.format(d)
  return hourFmt.format(d)
}

/** Tooltip title: the whole bucket, in UTC. */
export function bucketTitle(iso: string, unit: BucketUnit): string {
  const d = new Date(iso)
  if (unit === 'day') return `${dayFmt.format(d)} ${d.getUTCFullYear()} (UTC)`
  const end = new Date(d.getTime() + 3_600_000)
  return `${dayFmt.format(d)}, ${hourFmt.format(d)}–${hourFmt.format(end)} UTC`
}

export type StatusRow = { start: string; total: number } & Record<string, number | string>

/** One flat row per bucket for a stacked bar chart: { start, total, succeeded: n, ... }. */
export function statusRows(a: RunsAnalytics): StatusRow[] {
  return a.statusOverTime.buckets.map((b) => ({ ...b.counts, start: b.start, total: b.total }))
}

export const sizeLabel = (fromPct: number, toPct: number) => `${fromPct}–${toPct}%`

const UNIT_MS: Record<BucketUnit, number> = { hour: 3_600_000, day: 86_400_000 }

/** The time range a status chart covers: its first bucket's start to its last bucket's end. */
export function chartRange(a: RunsAnalytics): { from: string; to: string } | null {
  const b = a.statusOverTime.buckets
  if (b.length === 0) return null
  const end = Date.parse(b[b.length - 1].start) + UNIT_MS[a.statusOverTime.unit as BucketUnit]
  return { from: b[0].start, to: new Date(end - 1).toISOString() }
}

/** Events by the chart bucket they fall in (the latest bucket starting at or before them); events outside are left out. */
export function eventsByBucket(
  starts: readonly string[],
  events: readonly ConsoleEvent[],
  unit: BucketUnit,
): Map<string, ConsoleEvent[]> {
  const out = new Map<string, ConsoleEvent[]>()
  const times = starts.map((s) => Date.parse(s))
  for (const e of events) {
    const t = Date.parse(e.at)
    let i = times.length - 1
    while (i >= 0 && times[i] > t) i--
    if (i < 0 || t >= times[i] + UNIT_MS[unit]) continue
    out.set(starts[i], [...(out.get(starts[i]) ?? []), e])
  }
  return out
}

const KIND_WORD: Record<ConsoleEvent['kind'], [string, string]> = {
  write: ['single write', 'single writes'],
  batch: ['batch', 'batches'],
  undo: ['undo', 'undos'],
  setup: ['setup run', 'setup runs'],
}

/** "2 batches, 1 setup run" */
export function eventsText(events: readonly ConsoleEvent[]): string {
  const n = (k: ConsoleEvent['kind']) => events.filter((e) => e.kind === k).length
  return (['batch', 'undo', 'write', 'setup'] as const)
    .filter((k) => n(k) > 0)
    .map((k) => `${n(k)} ${KIND_WORD[k][n(k) === 1 ? 0 : 1]}`)
    .join(', ')
}
