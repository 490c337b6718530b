/**
 * Resume-point detection over the versions of one working-memory block (usually `checkpoint`):
 * where a run's processes stopped and picked up, what a resume read at each of those moments,
 * and what the first write after it changed. Pure functions over plain rows; no I/O.
 */
import { describeDiff, diffContents, unitsDone as countUnits } from '../diff'
import { formatDuration, formatUtc, timeMs } from './time'

export { resumeFlowMermaid, mermaidText, type FlowOptions } from './mermaid'
export { formatDuration, formatUtc, timeMs } from './time'

/** One physical row of the block, as read without FINAL (or from the history table). */
export type VersionInput = {
  /** UInt64 as a decimal string. */
  version: string
  /** ISO 8601 UTC. */
  updatedAt: string
  actor: string
  sourceTrace: string
  content: string
  isDeleted: boolean
}

export type RunBegin = { attempt: number; at: string }

/** What the run row tells about its begins, when the individual begins are not known. */
export type RunBeginsSummary = { attempts: number; startedAt?: string | null; lastBeginAt?: string | null }

export type RunBeginInput = RunBegin[] | RunBeginsSummary

export type ResumeReason = 'run-begin' | 'new-process' | 'long-gap' | 'operator-edit' | 'operator-clear'

/** The order reasons are listed in within a point. */
export const RESUME_REASONS: readonly ResumeReason[] = ['run-begin', 'new-process', 'long-gap', 'operator-edit', 'operator-clear']

export type ResumePoint = {
  /** When it happened: the run.begin time when one was matched, else the time of the first write after it. */
  at: string
  reasons: ResumeReason[]
  /** The version a resume at that moment read: the latest version before the point; null if none or a tombstone. */
  fromVersion: string | null
  /** The source_trace of the last non-operator write before the point. */
  fromTrace: string | null
  /** The source_trace of the first write after the point (null when nothing was written yet). */
  toTrace: string | null
  /** Units done in fromVersion's content (see `unitsDone` in lib/diff). */
  unitsDone: number | null
  /** The first write after the point and what it changed relative to fromVersion. */
  firstWrite: { version: string; at: string; summary: string } | null
  /** The row just before the point, even a tombstone (null when none). */
  previous: { version: string; isDeleted: boolean } | null
  /** Milliseconds between the previous write (of the agent; of anyone for operator points) and the first write. */
  gapMs: number | null
  /** The highest run.begin attempt matched to this point. */
  attempt: number | null
  /** Who made the first write (the operator, for operator points). */
  actor: string | null
  /** Version numbers are missing just before the first write (merged away), so the real resume may have read a later version. */
  historyGap: boolean
}

export type DetectOptions = {
  begins?: RunBeginInput | null
  /** A gap counts as long when over median checkpoint interval × gapFactor (default 8)… */
  gapFactor?: number
  /** …and over minGapMs (default 60 000). */
  minGapMs?: number
}

export const OPERATOR_PREFIX = 'operator:'

export function isOperatorActor(actor: string): boolean {
  return actor.startsWith(OPERATOR_PREFIX)
}

/* ------------------------------------------------------------------ helpers */

/** A version string as a BigInt; -1 for anything that is not a decimal UInt64 (sorts first). */
export function versionKey(v: string): bigint {
  const t = v.trim()
  return /^\d+$/.test(t) ? BigInt(t) : -1n
}

function ms(iso: string): number {
  const t = timeMs(iso)
  return Number.isNaN(t) ? 0 : t
}

/** Rows ordered by version (as BigInt), then updated_at, then input order. Does not mutate the input. */
export function sortVersions<T extends Pick<VersionInput, 'version' | 'updatedAt'>>(versions: readonly T[]): T[] {
  return versions
    .map((row, i) => ({ row, i, v: versionKey(row.version), t: ms(row.updatedAt) }))
    .sort((a, b) => (a.v < b.v ? -1 : a.v > b.v ? 1 : a.t - b.t || a.i - b.i))
    .map((x) => x.row)
}

function median(xs: number[]): number {
  if (xs.length === 0) return 0
  const s = [...xs].sort((a, b) => a - b)
  const mid = s.length >> 1
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2
}

export type GapStats = { medianIntervalMs: number; thresholdMs: number }

/** The run's usual checkpoint interval (median between consecutive non-operator writes) and the long-gap threshold. */
export function gapStats(versions: readonly VersionInput[], opts: Pick<DetectOptions, 'gapFactor' | 'minGapMs'> = {}): GapStats {
  const gapFactor = opts.gapFactor ?? 8
  const minGapMs = opts.minGapMs ?? 60_000
  const agentTimes = sortVersions(versions)
    .filter((r) => !isOperatorActor(r.actor))
    .map((r) => ms(r.updatedAt))
  const intervals: number[] = []
  for (let i = 1; i < agentTimes.length; i++) intervals.push(Math.max(0, agentTimes[i] - agentTimes[i - 1]))
  const medianIntervalMs = median(intervals)
  return { medianIntervalMs, thresholdMs: Math.max(medianIntervalMs * gapFactor, minGapMs) }
}

/** Run begins after the first (attempt > 1), oldest first. */
export function normalizeBegins(begins: RunBeginInput | null | undefined): RunBegin[] {
  if (!begins) return []
  let list: RunBegin[]
  if (Array.isArray(begins)) list = begins
  else {
    // From the run row only the latest begin's time is known (and the first one's, attempt 1).
    list = []
    if (begins.startedAt) list.push({ attempt: 1, at: begins.startedAt })
    if (begins.attempts > 1 && begins.lastBeginAt) list.push({ attempt: begins.attempts, at: begins.lastBeginAt })
  }
  return list
    .filter((b) => Number.isFinite(b.attempt) && b.attempt > 1 && !Number.isNaN(timeMs(b.at)))
    .sort((a, b) => ms(a.at) - ms(b.at) || a.attempt - b.attempt)
}

function summarizeWrite(fromContent: string, row: VersionInput): string {
  if (row.isDeleted) {
    return fromContent.trim() === '' ? 'cleared the block (tombstone)' : `cleared the block (tombstone; ${describeDiff(diffContents(fromContent, ''))})`
  }
  return describeDiff(diffContents(fromContent, row.content))
}

/* ------------------------------------------------------------------- detect */

type Draft = { reasons: Set<ResumeReason>; begins: RunBegin[]; gapMs: number | null }

/** Every resume point (and operator action) in the block's history, oldest first. */
export function detectResumePoints(versions: readonly VersionInput[], opts: DetectOptions = {}): ResumePoint[] {
  const rows = sortVersions(versions)
  const { thresholdMs } = gapStats(rows, opts)
  const drafts = new Map<number, Draft>()
  const draft = (i: number): Draft => {
    let d = drafts.get(i)
    if (!d) drafts.set(i, (d = { reasons: new Set(), begins: [], gapMs: null }))
    return d
  }

  let lastAgent = -1
  rows.forEach((r, i) => {
    if (isOperatorActor(r.actor)) {
      const d = draft(i)
      d.reasons.add(r.isDeleted ? 'operator-clear' : 'operator-edit')
      if (i > 0) d.gapMs = ms(r.updatedAt) - ms(rows[i - 1].updatedAt)
      return
    }
    if (lastAgent >= 0) {
      const prev = rows[lastAgent]
      const gap = ms(r.updatedAt) - ms(prev.updatedAt)
      if (prev.sourceTrace !== r.sourceTrace) draft(i).reasons.add('new-process')
      if (gap > thresholdMs) draft(i).reasons.add('long-gap')
      if (drafts.has(i)) draft(i).gapMs = gap
    }
    lastAgent = i
  })

  const unmatched: RunBegin[] = []
  for (const b of normalizeBegins(opts.begins)) {
    const t = ms(b.at)
    const i = rows.findIndex((r) => !isOperatorActor(r.actor) && ms(r.updatedAt) >= t)
    if (i < 0) {
      unmatched.push(b)
      continue
    }
    const d = draft(i)
    d.reasons.add('run-begin')
    d.begins.push(b)
    if (d.gapMs === null) {
      const prevAgent = findLast(rows, i, (r) => !isOperatorActor(r.actor))
      if (prevAgent >= 0) d.gapMs = ms(rows[i].updatedAt) - ms(rows[prevAgent].updatedAt)
    }
  }

  const points: ResumePoint[] = []
  for (const i of [...drafts.keys()].sort((a, b) => a - b)) {
    const d = drafts.get(i)!
    const r = rows[i]
    const latestBegin = d.begins.length ? d.begins.reduce((a, b) => (ms(b.at) >= ms(a.at) ? b : a)) : null
    const at = latestBegin ? latestBegin.at : r.updatedAt
    // A resume at `at` read the latest row written by then (rows are in version order).
    let from = i - 1
    if (latestBegin) while (from >= 0 && ms(rows[from].updatedAt) > ms(at)) from--
    const prev = from >= 0 ? rows[from] : null
    const fromRow = prev && !prev.isDeleted ? prev : null
    const prevAgent = findLast(rows, i, (x) => !isOperatorActor(x.actor))
    const before = i > 0 ? versionKey(rows[i - 1].version) : 0n
    points.push({
      at,
      reasons: RESUME_REASONS.filter((x) => d.reasons.has(x)),
      fromVersion: fromRow?.version ?? null,
      fromTrace: prevAgent >= 0 ? rows[prevAgent].sourceTrace : null,
      toTrace: r.sourceTrace,
      unitsDone: fromRow ? countUnits(fromRow.content) : null,
      firstWrite: { version: r.version, at: r.updatedAt, summary: summarizeWrite(fromRow?.content ?? '', r) },
      previous: prev ? { version: prev.version, isDeleted: prev.isDeleted } : null,
      gapMs: d.gapMs,
      attempt: d.begins.length ? Math.max(...d.begins.map((b) => b.attempt)) : null,
      actor: r.actor,
      historyGap: versionKey(r.version) - before > 1n,
    })
  }

  // Begins after the last write: the process resumed but has written nothing yet.
  for (const b of unmatched) {
    const t = ms(b.at)
    const from = findLast(rows, rows.length, (r) => ms(r.updatedAt) <= t)
    const prev = from >= 0 ? rows[from] : rows.length ? rows[rows.length - 1] : null
    const fromRow = prev && !prev.isDeleted ? prev : null
    const prevAgent = findLast(rows, rows.length, (x) => !isOperatorActor(x.actor))
    points.push({
      at: b.at,
      reasons: ['run-begin'],
      fromVersion: fromRow?.version ?? null,
      fromTrace: prevAgent >= 0 ? rows[prevAgent].sourceTrace : null,
      toTrace: null,
      unitsDone: fromRow ? countUnits(fromRow.content) : null,
      firstWrite: null,
      previous: prev ? { version: prev.version, isDeleted: prev.isDeleted } : null,
      gapMs: null,
      attempt: b.attempt,
      actor: null,
      historyGap: false,
    })
  }
  return points
}

function findLast<T>(xs: readonly T[], before: number, pred: (x: T) => boolean): number {
  for (let j = before - 1; j >= 0; j--) if (pred(xs[j])) return j
  return -1
}

/** True when a point is a process resume (not only an operator action). */
export function isResume(p: ResumePoint): boolean {
  return p.reasons.some((r) => r === 'run-begin' || r === 'new-process' || r === 'long-gap')
}

/* ------------------------------------------------------------------ current */

/** What `resume(run_id)` returns now: the highest version's content, or null when none or a tombstone. */
export function currentResume(versions: readonly VersionInput[]): { value: string | null; fromVersion: string | null } {
  const rows = sortVersions(versions)
  const last = rows[rows.length - 1]
  if (!last || last.isDeleted) return { value: null, fromVersion: null }
  return { value: last.content, fromVersion: last.version }
}

/** Versions that appear on more than one row, ascending. */
export function findVersionTies(versions: readonly Pick<VersionInput, 'version'>[]): string[] {
  const counts = new Map<string, number>()
  for (const r of versions) {
    const k = versionKey(r.version)
    const key = k < 0n ? r.version : k.toString()
    counts.set(key, (counts.get(key) ?? 0) + 1)
  }
  return [...counts.entries()]
    .filter(([, n]) => n > 1)
    .map(([v]) => v)
    .sort((a, b) => {
      const x = versionKey(a)
      const y = versionKey(b)
      return x < y ? -1 : x > y ? 1 : 0
    })
}

/** Characters as ClickHouse's char_limit counts them (code points). */
export function charCount(content: string): number {
  return Array.from(content).length
}

/** True when content uses at least `ratio` (default 90%) of its char_limit. */
export function isNearLimit(content: string, charLimit: number, ratio = 0.9): boolean {
  return charLimit > 0 && charCount(content) >= charLimit * ratio
}

/* ------------------------------------------------------------------ explain */

function itemsDone(n: number): string {
  return `${n} item${n === 1 ? '' : 's'} done`
}

function fromPhrase(p: ResumePoint): string {
  if (p.fromVersion !== null) return `v${p.fromVersion}${p.unitsDone !== null ? ` (${itemsDone(p.unitsDone)})` : ''}`
  if (p.previous?.isDeleted) return `nothing (v${p.previous.version} was a tombstone, so resume returned None)`
  return 'nothing (no earlier version, so resume returned None)'
}

function writePhrase(summary: string): string {
  if (/^(added|removed|changed|cleared) /.test(summary)) return summary
  if (summary === 'no change') return 'changed nothing'
  return `changed it (${summary})`
}

function reasonPhrases(p: ResumePoint): string[] {
  const out: string[] = []
  for (const r of p.reasons) {
    if (r === 'run-begin') out.push(p.attempt !== null ? `run.begin attempt ${p.attempt}` : 'run.begin')
    else if (r === 'new-process') out.push(p.fromTrace !== null ? `new source_trace (was ${p.fromTrace || '(empty)'})` : 'new source_trace')
    else if (r === 'long-gap') out.push(p.gapMs !== null ? `${formatDuration(p.gapMs)} without a write` : 'long gap without a write')
  }
  return out
}

/** One readable sentence per point, e.g. "Process host-b/pid-5150 resumed at … from v120 (120 items done); its first write v121 added item-121". */
export function explainResume(points: readonly ResumePoint[]): string[] {
  return points.map((p) => {
    const when = formatUtc(p.at)
    const actor = p.actor ?? 'an operator'
    if (p.reasons.includes('operator-clear')) {
      const was = p.fromVersion !== null ? ` (was v${p.fromVersion}${p.unitsDone !== null ? `, ${itemsDone(p.unitsDone)}` : ''})` : ''
      return `${actor} cleared the block at ${when} with tombstone v${p.firstWrite?.version ?? '?'}${was}; resume returns None after it`
    }
    if (p.reasons.includes('operator-edit')) {
      const from = p.fromVersion !== null ? `v${p.fromVersion}` : p.previous?.isDeleted ? `tombstone v${p.previous.version}` : 'nothing'
      return `${actor} edited the block at ${when}: ${from} → v${p.firstWrite?.version ?? '?'} (${p.firstWrite?.summary ?? 'no write'})`
    }
    const reasons = reasonPhrases(p)
    const detected = reasons.length ? ` — ${reasons.join(', ')}` : ''
    if (!p.firstWrite) {
      return `Attempt ${p.attempt ?? '?'} began at ${when}; a resume then read ${fromPhrase(p)}; nothing written since${detected}`
    }
    const who = p.toTrace ? `Process ${p.toTrace}` : 'A process with no source_trace'
    let s = `${who} resumed at ${when} from ${fromPhrase(p)}; its first write v${p.firstWrite.version} ${writePhrase(p.firstWrite.summary)}`
    if (p.historyGap) s += ` (earlier versions are missing from the history, merged away; it may have resumed from a later version)`
    return s + detected
  })
}

/* ----------------------------------------------------------------- segments */

export type SegmentEnd = 'crash' | 'completed' | 'cleared' | 'operator' | 'running'

export type Segment = {
  /** `s1`, `s2`, … in order. */
  id: string
  /** `operator`: one dashboard write (edit or clear). */
  kind: 'process' | 'operator'
  /** Null for a resumed process that has not written yet. */
  sourceTrace: string | null
  actor: string | null
  fromVersion: string | null
  toVersion: string | null
  startAt: string
  endAt: string
  /** Rows in the segment. */
  writes: number
  endedBy: SegmentEnd
  /** For a segment that `completed`: the run's final status (succeeded, failed, cancelled). */
  endStatus: string | null
  /** The segment's last row is a tombstone. */
  endsWithTombstone: boolean
  /** Units done at the segment's last (non-tombstone) row. */
  unitsDone: number | null
  /** Reasons of the point the segment starts at ([] for the first segment or a plain continuation). */
  startReasons: ResumeReason[]
  /** Index into `points` of that point, or null. */
  startPoint: number | null
}

export type SegmentOptions = {
  /** The run's status (`running`, `succeeded`, `failed`, `cancelled`); unknown when absent. */
  runStatus?: string | null
  /** Now (ms); with it a silent last segment of a non-finished run counts as crashed after a long gap. */
  now?: number
  gapFactor?: number
  minGapMs?: number
}

const FINISHED = new Set(['succeeded', 'failed', 'cancelled'])

/** Process segments (runs of writes by one process between resume points) and operator writes, in order. */
export function segments(versions: readonly VersionInput[], points: readonly ResumePoint[], opts: SegmentOptions = {}): Segment[] {
  const rows = sortVersions(versions)
  const startsAt = new Map<number, number>()
  points.forEach((p, pi) => {
    if (!p.firstWrite) return
    const fw = p.firstWrite
    let i = rows.findIndex((r) => r.version === fw.version && ms(r.updatedAt) === ms(fw.at))
    if (i < 0) i = rows.findIndex((r) => versionKey(r.version) === versionKey(fw.version))
    if (i >= 0 && !startsAt.has(i)) startsAt.set(i, pi)
  })

  type Group = { rows: VersionInput[]; startPoint: number | null; kind: 'process' | 'operator'; at?: string }
  const groups: Group[] = []
  rows.forEach((r, i) => {
    const op = isOperatorActor(r.actor)
    const prev = i > 0 ? rows[i - 1] : null
    const cur = groups[groups.length - 1]
    const split =
      !cur || op || startsAt.has(i) || (prev !== null && (isOperatorActor(prev.actor) || prev.isDeleted || prev.sourceTrace !== r.sourceTrace))
    if (split) groups.push({ rows: [r], startPoint: startsAt.get(i) ?? null, kind: op ? 'operator' : 'process' })
    else cur.rows.push(r)
  })
  points.forEach((p, pi) => {
    if (!p.firstWrite) groups.push({ rows: [], startPoint: pi, kind: 'process', at: p.at })
  })

  const threshold = gapStats(rows, opts).thresholdMs
  return groups.map((g, gi): Segment => {
    const first = g.rows[0]
    const last = g.rows[g.rows.length - 1]
    const next = groups[gi + 1]
    const endsWithTombstone = last?.isDeleted ?? false
    let endedBy: SegmentEnd
    if (g.kind === 'operator') endedBy = endsWithTombstone ? 'cleared' : 'operator'
    else if (!next && opts.runStatus && FINISHED.has(opts.runStatus)) endedBy = 'completed'
    else if (endsWithTombstone) endedBy = 'cleared'
    else if (next) endedBy = next.kind === 'operator' ? 'operator' : 'crash'
    else {
      const endAt = last ? ms(last.updatedAt) : g.at ? ms(g.at) : 0
      endedBy = opts.now !== undefined && opts.now - endAt > threshold ? 'crash' : 'running'
    }
    const lastLive = [...g.rows].reverse().find((r) => !r.isDeleted)
    const point = g.startPoint !== null ? points[g.startPoint] : null
    return {
      id: `s${gi + 1}`,
      kind: g.kind,
      sourceTrace: first ? first.sourceTrace : null,
      actor: first ? first.actor : null,
      fromVersion: first ? first.version : null,
      toVersion: last ? last.version : null,
      startAt: first ? first.updatedAt : (g.at ?? ''),
      endAt: last ? last.updatedAt : (g.at ?? ''),
      writes: g.rows.length,
      endedBy,
      endStatus: endedBy === 'completed' ? (opts.runStatus ?? null) : null,
      endsWithTombstone,
      unitsDone: lastLive ? countUnits(lastLive.content) : null,
      startReasons: point ? [...point.reasons] : [],
      startPoint: g.startPoint,
    }
  })
}
