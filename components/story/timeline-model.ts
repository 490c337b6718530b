import { duration } from '@/lib/format'
import { TIMELINE_KINDS, type TimelineKind } from '@/lib/api/timeline-kinds'
import type { TimelineEvent } from '@/lib/api/types'
import { missedPhrase } from '@/lib/resume/explain'
import type { ResumePoint } from '@/lib/resume/types'

/** Lane order, top to bottom: the order a run usually does things in. */
export const KIND_ORDER = TIMELINE_KINDS

export const KIND_LABEL: Record<TimelineKind, string> = {
  'run.begin': 'run.begin',
  checkpoint: 'checkpoint',
  'checkpoint.cleared': 'cleared',
  block: 'other blocks',
  operator: 'operator',
  turn: 'turns',
  'memory.write': 'memory writes',
  search: 'searches',
  blob: 'blobs',
  'run.complete': 'run.complete',
}

/** Each kind's colour token (defined in globals.css, light and dark), for SVG fills and inline styles. */
const KIND_COLOR: Record<TimelineKind, string> = {
  'run.begin': 'var(--tl-run-begin)',
  checkpoint: 'var(--tl-checkpoint)',
  'checkpoint.cleared': 'var(--tl-checkpoint-cleared)',
  block: 'var(--tl-block)',
  operator: 'var(--tl-operator)',
  turn: 'var(--tl-turn)',
  'memory.write': 'var(--tl-memory-write)',
  search: 'var(--tl-search)',
  blob: 'var(--tl-blob)',
  'run.complete': 'var(--tl-run-complete)',
}

export function kindColor(kind: TimelineKind): string {
  return KIND_COLOR[kind]
}

/** Events parsed once: time in ms, lane index, position in the full list. */
export type Prepared = {
  events: TimelineEvent[]
  times: number[]
  lanes: TimelineKind[]
  laneOf: Map<TimelineKind, number>
  indexById: Map<string, number>
  counts: Map<TimelineKind, number>
  /** The events span more than one UTC day: times of day alone would be ambiguous, so rows show dates. */
  multiDay: boolean
  /** Events were written under more than one user/session: rows name the identity, so two "v1"s are told apart. */
  manyIdentities: boolean
}

/** "user/session" of an event with an identity; empty for events without one (operator notes may lack it). */
export function identityOf(e: Pick<TimelineEvent, 'userId' | 'sessionId'>): string {
  return e.userId || e.sessionId ? `${e.userId}/${e.sessionId}` : ''
}

export function prepare(events: TimelineEvent[]): Prepared {
  const times = events.map((e) => Date.parse(e.at))
  const counts = new Map<TimelineKind, number>()
  const indexById = new Map<string, number>()
  events.forEach((e, i) => {
    counts.set(e.kind, (counts.get(e.kind) ?? 0) + 1)
    indexById.set(e.id, i)
  })
  const lanes = KIND_ORDER.filter((k) => counts.has(k))
  const laneOf = new Map(lanes.map((k, i) => [k, i] as const))
  const multiDay = times.length > 1 && crossesDay(Math.min(...times), Math.max(...times))
  const identities = new Set(events.map(identityOf).filter(Boolean))
  return { events, times, lanes, laneOf, indexById, counts, multiDay, manyIdentities: identities.size > 1 }
}

const DAY_MS = 86_400_000

/** True when t0 and t1 fall on different UTC days. */
export function crossesDay(t0: number, t1: number): boolean {
  return Number.isFinite(t0) && Number.isFinite(t1) && Math.floor(t0 / DAY_MS) !== Math.floor(t1 / DAY_MS)
}

export type Gap = { start: number; end: number; x0: number; x1: number; ms: number; label: string }

/**
 * Maps wall-clock time to the chart's x axis. Uncompressed, x is ms since the first event.
 * Compressed, every idle gap much longer than the run's usual spacing is cut down to a fixed
 * width, so a run that crashed and was resumed hours later does not squash its busy parts.
 */
export type TimeAxis = {
  t0: number
  t1: number
  compressed: boolean
  gaps: Gap[]
  domain: [number, number]
  toX: (t: number) => number
  fromX: (x: number) => number
}

export const GAP_FACTOR = 10
const MIN_GAP_MS = 10_000

export function findIdleGaps(sortedTimes: number[]): { median: number; gaps: { start: number; end: number }[] } {
  const spacing: number[] = []
  for (let i = 1; i < sortedTimes.length; i++) {
    const d = sortedTimes[i] - sortedTimes[i - 1]
    if (d > 0) spacing.push(d)
  }
  if (spacing.length === 0) return { median: 0, gaps: [] }
  const sorted = [...spacing].sort((a, b) => a - b)
  const median = sorted[Math.floor(sorted.length / 2)]
  const threshold = Math.max(median * GAP_FACTOR, MIN_GAP_MS)
  const gaps: { start: number; end: number }[] = []
  for (let i = 1; i < sortedTimes.length; i++) {
    if (sortedTimes[i] - sortedTimes[i - 1] > threshold) gaps.push({ start: sortedTimes[i - 1], end: sortedTimes[i] })
  }
  return { median, gaps }
}

type Span = readonly [start: number, end: number]
const timeSpan = (g: Gap): Span => [g.start, g.end]
const xSpan = (g: Gap): Span => [g.x0, g.x1]

/**
 * Carries a point from one axis to the other: inside a gap's span on the first axis it falls at the
 * same fraction of the gap's span on the other; elsewhere it moves by `origin` (from one axis's
 * origin to the other's) and by how much longer the gaps before it are on the other axis.
 */
function acrossGaps(gaps: Gap[], from: (g: Gap) => Span, to: (g: Gap) => Span, v: number, origin: number): number {
  let shift = 0
  for (const g of gaps) {
    const [a0, a1] = from(g)
    const [b0, b1] = to(g)
    if (v >= a1) shift += b1 - b0 - (a1 - a0)
    else if (v > a0) return b0 + ((v - a0) / (a1 - a0)) * (b1 - b0)
    else break
  }
  return v + origin + shift
}

export function buildTimeAxis(sortedTimes: number[], compress: boolean): TimeAxis {
  const t0 = sortedTimes.length ? sortedTimes[0] : 0
  const t1 = sortedTimes.length ? sortedTimes[sortedTimes.length - 1] : 0
  const found = compress ? findIdleGaps(sortedTimes).gaps : []
  if (found.length === 0) {
    const span = Math.max(t1 - t0, 1)
    return { t0, t1, compressed: false, gaps: [], domain: [0, span], toX: (t) => t - t0, fromX: (x) => x + t0 }
  }
  const busy = t1 - t0 - found.reduce((s, g) => s + (g.end - g.start), 0)
  // Each gap keeps a small fixed width: visible, never dominant.
  const width = Math.max(busy * 0.04, 1)
  const gaps: Gap[] = []
  let removed = 0
  for (const g of found) {
    const x0 = g.start - t0 - removed
    removed += g.end - g.start - width
    const ms = g.end - g.start
    gaps.push({ start: g.start, end: g.end, x0, x1: x0 + width, ms, label: `no events for ${duration(ms)}` })
  }
  const toX = (t: number) => acrossGaps(gaps, timeSpan, xSpan, t, -t0)
  const fromX = (x: number) => acrossGaps(gaps, xSpan, timeSpan, x, t0)
  return { t0, t1, compressed: true, gaps, domain: [0, Math.max(toX(t1), 1)], toX, fromX }
}

export type Mark = { x: number; y: number; id: string; kind: TimelineKind; count: number; label: string; at: string }

/**
 * Chart marks inside the visible x range: one per event, or when there are more than `maxMarks`
 * (each mark is a few SVG elements, and a tab stays under 3,000 elements), one per (lane, bucket
 * of the x range) with a count, the buckets sized so that all lanes together stay within
 * `maxMarks`. Zooming in splits them.
 */
export function marksFor(
  p: Prepared,
  axis: TimeAxis,
  shown: (i: number) => boolean,
  view: [number, number],
  maxMarks = 700,
): Mark[] {
  const [v0, v1] = view
  const visible: number[] = []
  for (let i = 0; i < p.events.length; i++) {
    if (!shown(i)) continue
    const x = axis.toX(p.times[i])
    if (x >= v0 && x <= v1) visible.push(i)
  }
  const mark = (i: number, x: number, count: number): Mark => {
    const e = p.events[i]
    return { x, y: p.laneOf.get(e.kind) ?? 0, id: e.id, kind: e.kind, count, label: e.label, at: e.at }
  }
  if (visible.length <= maxMarks) return visible.map((i) => mark(i, axis.toX(p.times[i]), 1))
  const lanes = new Set(visible.map((i) => p.events[i].kind)).size
  const buckets = Math.max(1, Math.floor(maxMarks / lanes))
  const width = (v1 - v0) / buckets || 1
  const grouped = new Map<string, Mark>()
  for (const i of visible) {
    const x = axis.toX(p.times[i])
    const b = Math.min(buckets - 1, Math.floor((x - v0) / width))
    const key = `${p.events[i].kind}|${b}`
    const m = grouped.get(key)
    if (m) m.count++
    else grouped.set(key, mark(i, v0 + (b + 0.5) * width, 1))
  }
  return [...grouped.values()]
}

/** Evenly spaced ticks over the visible x range, labelled in wall-clock time. */
export function axisTicks(view: [number, number], count = 7): number[] {
  const [a, b] = view
  if (b <= a) return [a]
  return Array.from({ length: count }, (_, i) => a + ((b - a) * i) / (count - 1))
}

const hms = new Intl.DateTimeFormat('en-GB', {
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  hour12: false,
  timeZone: 'UTC',
})
const dayHm = new Intl.DateTimeFormat('en-GB', {
  month: 'short',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  hour12: false,
  timeZone: 'UTC',
})
const dayMonth = new Intl.DateTimeFormat('en-GB', { month: 'short', day: '2-digit', timeZone: 'UTC' })

/** An axis label: with the date when the visible range crosses a UTC day (or spans over 36 hours). */
export function clockLabel(t: number, spanMs: number, acrossDays = false): string {
  if (!Number.isFinite(t)) return ''
  return acrossDays || spanMs > 36 * 3600_000 ? dayHm.format(new Date(t)) : hms.format(new Date(t))
}

/** hh:mm:ss.mmm UTC for list rows; prefixed with the date (`20 Nov`) when the timeline spans days. */
export function rowTime(iso: string, withDate = false): string {
  const d = new Date(iso)
  const time = `${hms.format(d)}.${String(d.getUTCMilliseconds()).padStart(3, '0')}`
  return withDate ? `${dayMonth.format(d)} ${time}` : time
}

/**
 * A "resume" tag for the first checkpoint write after each resume point, and for a
 * run.begin of a later attempt, so the list shows where processes picked up.
 */
export function resumeTags(events: TimelineEvent[], resumes: ResumePoint[]): Map<string, string> {
  const tags = new Map<string, string>()
  for (const r of resumes) {
    const fw = r.firstWrite
    if (!fw) {
      // Begun, nothing written yet: the moment to act on a near miss, so its run.begin says what it cannot see.
      const begin = r.attempt
        ? events.find((ev) => ev.kind === 'run.begin' && new RegExp(`attempt ${r.attempt}\\b`).test(ev.label))
        : undefined
      if (begin)
        tags.set(
          begin.id,
          `${resumeTag(r).replace(/^resume · /, `resume · attempt ${r.attempt} `)}; no checkpoint written yet`,
        )
      continue
    }
    const e =
      events.find(
        (ev) =>
          ev.blockKey === 'checkpoint' &&
          (ev.kind === 'checkpoint' || ev.kind === 'checkpoint.cleared') &&
          ev.version === fw.version &&
          ev.at === fw.at,
      ) ?? events.find((ev) => ev.blockKey === 'checkpoint' && ev.version === fw.version)
    if (e) tags.set(e.id, resumeTag(r))
  }
  for (const e of events) {
    const attempt = e.kind === 'run.begin' ? /attempt (\d+)/.exec(e.label)?.[1] : undefined
    if (attempt && attempt !== '1' && !tags.has(e.id)) tags.set(e.id, `resume · attempt ${attempt}`)
  }
  return tags
}

/** "resume · from nothing; v40 under session s1 existed: 40 items redone"; an operator's write is tagged as what it was. */
export function resumeTag(r: ResumePoint): string {
  const v = r.firstWrite?.version ?? '?'
  if (r.reasons.includes('operator-clear')) return `operator clear · tombstone v${v}`
  if (r.reasons.includes('operator-restore'))
    return r.restoredFrom ? `operator restore · v${r.restoredFrom} as v${v}` : `operator restore · v${v}`
  if (r.reasons.includes('operator-edit'))
    return `operator edit · ${r.fromVersion ? `v${r.fromVersion}` : 'nothing'} → v${v}`
  const from = r.fromVersion ? `resume · from v${r.fromVersion}` : 'resume · from nothing'
  return r.missed ? `${from}; ${missedPhrase(r.missed)}` : from
}

/** The chart's marker text: short enough for a phone; the whole label is listed under the chart. */
export function resumeShortLabel(r: ResumePoint): string {
  if (r.reasons.some((x) => x.startsWith('operator-'))) return resumeLabel(r)
  return `resume${r.attempt && r.attempt > 1 ? ` · attempt ${r.attempt}` : ''}`
}

export function resumeLabel(r: ResumePoint): string {
  if (r.reasons.includes('operator-clear')) return 'operator clear'
  if (r.reasons.includes('operator-edit')) return 'operator edit'
  if (r.reasons.includes('operator-restore'))
    return r.restoredFrom ? `operator restore of v${r.restoredFrom}` : 'operator restore'
  const attempt = r.attempt && r.attempt > 1 ? ` · attempt ${r.attempt}` : ''
  if (r.missed)
    return `resume${attempt} from ${r.fromVersion ? `v${r.fromVersion}` : 'nothing'}; v${r.missed.version} under ${r.missed.under} existed`
  return `resume${attempt}${r.fromVersion ? ` from v${r.fromVersion}` : ''}`
}
