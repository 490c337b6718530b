/**
 * Resume-point detection over the versions of one working-memory block (usually `checkpoint`):
 * where a run's processes stopped and picked up, what a resume read at each of those moments,
 * and what the first write after it changed. Pure functions over plain rows; no I/O.
 */
import { describeDiff, diffContents, unitsDone as countUnits } from '../diff'
import {
  findLast,
  GAP_FACTOR,
  isOperatorActor,
  median,
  MIN_GAP_MS,
  ms,
  NEAR_LIMIT_RATIO,
  sortVersions,
  versionKey,
} from './rows'
import { charCount } from '../tables/values'
import { timeMs } from './time'
import {
  RESUME_REASONS,
  type DetectOptions,
  type ResumePoint,
  type ResumeReason,
  type RunBegin,
  type RunBeginInput,
  type VersionInput,
} from './types'

export type GapStats = { medianIntervalMs: number; thresholdMs: number }

/** The run's usual checkpoint interval (median between consecutive non-operator writes) and the long-gap threshold. */
export function gapStats(
  versions: readonly VersionInput[],
  opts: Pick<DetectOptions, 'gapFactor' | 'minGapMs'> = {},
): GapStats {
  const gapFactor = opts.gapFactor ?? GAP_FACTOR
  const minGapMs = opts.minGapMs ?? MIN_GAP_MS
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

function summarizeWrite(fromContent: string, row: VersionInput, summarize: DetectOptions['summarize']): string {
  if (row.isDeleted) {
    return fromContent.trim() === ''
      ? 'cleared the block (tombstone)'
      : `cleared the block (tombstone; ${describeDiff(diffContents(fromContent, ''))})`
  }
  return summarize?.(fromContent, row.content) ?? describeDiff(diffContents(fromContent, row.content))
}

/** The version an operator's restore put back: the newest earlier live row with the same content. */
export function restoredSource(rows: readonly VersionInput[], i: number): string | null {
  const j = findLast(
    rows,
    i,
    (r) => !r.isDeleted && r.content === rows[i].content && versionKey(r.version) < versionKey(rows[i].version),
  )
  return j >= 0 ? rows[j].version : null
}

type Draft = { reasons: Set<ResumeReason>; begins: RunBegin[] }

/** Every resume point (and operator action) in the block's history, oldest first. */
export function detectResumePoints(versions: readonly VersionInput[], opts: DetectOptions = {}): ResumePoint[] {
  const rows = sortVersions(versions)
  const { thresholdMs } = gapStats(rows, opts)
  const restoreActions = (opts.operatorActions ?? []).filter((a) => a.action === 'restore')
  const restores = new Set(restoreActions.map((a) => versionKey(a.version)))
  // What the audit says each restore put back; content matching is the fallback (two versions may share a content).
  const restoredOf = new Map(
    restoreActions.filter((a) => a.restoredVersion).map((a) => [versionKey(a.version), a.restoredVersion as string]),
  )
  const drafts = new Map<number, Draft>()
  const draft = (i: number): Draft => {
    let d = drafts.get(i)
    if (!d) drafts.set(i, (d = { reasons: new Set(), begins: [] }))
    return d
  }
  // A gap counts every write, the operator's too: a resume after an edit waited since the edit.
  const gapBefore = (i: number) => (i > 0 ? ms(rows[i].updatedAt) - ms(rows[i - 1].updatedAt) : null)

  let lastAgent = -1
  rows.forEach((r, i) => {
    if (isOperatorActor(r.actor)) {
      draft(i).reasons.add(
        r.isDeleted ? 'operator-clear' : restores.has(versionKey(r.version)) ? 'operator-restore' : 'operator-edit',
      )
      return
    }
    if (lastAgent >= 0) {
      if (rows[lastAgent].sourceTrace !== r.sourceTrace) draft(i).reasons.add('new-process')
      const gap = gapBefore(i)
      if (gap !== null && gap > thresholdMs) draft(i).reasons.add('long-gap')
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
    const before = i > 0 ? rows[i - 1] : null
    const reasons = RESUME_REASONS.filter((x) => d.reasons.has(x))
    points.push({
      at,
      reasons,
      fromVersion: fromRow?.version ?? null,
      fromTrace: prevAgent >= 0 ? rows[prevAgent].sourceTrace : null,
      toTrace: r.sourceTrace,
      unitsDone: fromRow ? countUnits(fromRow.content) : null,
      firstWrite: {
        version: r.version,
        at: r.updatedAt,
        summary: summarizeWrite(fromRow?.content ?? '', r, opts.summarize),
      },
      previous: prev ? { version: prev.version, isDeleted: prev.isDeleted } : null,
      gapMs: gapBefore(i),
      gapFrom: before ? { version: before.version, actor: before.actor, at: before.updatedAt } : null,
      attempt: d.begins.length ? Math.max(...d.begins.map((b) => b.attempt)) : null,
      actor: r.actor,
      historyGap: versionKey(r.version) - (before ? versionKey(before.version) : 0n) > 1n,
      restoredFrom: reasons.includes('operator-restore')
        ? (restoredOf.get(versionKey(r.version)) ?? restoredSource(rows, i))
        : null,
      missed: null,
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
      gapFrom: null,
      attempt: b.attempt,
      actor: null,
      historyGap: false,
      restoredFrom: null,
      missed: null,
    })
  }
  return points
}

/** True when a point is a process resume (not only an operator action). */
export function isResume(p: ResumePoint): boolean {
  return p.reasons.some((r) => r === 'run-begin' || r === 'new-process' || r === 'long-gap')
}

/**
 * What `resume(run_id)` returns now, from the row FINAL keeps for the block: its content, or null
 * when there is none or it is a tombstone.
 */
export function resumeOf(latest: Pick<VersionInput, 'content' | 'version' | 'isDeleted'> | null): {
  value: string | null
  fromVersion: string | null
} {
  if (!latest || latest.isDeleted) return { value: null, fromVersion: null }
  return { value: latest.content, fromVersion: latest.version }
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

/** True when content uses at least `ratio` (default NEAR_LIMIT_RATIO) of its char_limit. */
export function isNearLimit(content: string, charLimit: number, ratio = NEAR_LIMIT_RATIO): boolean {
  return charLimit > 0 && charCount(content) >= charLimit * ratio
}
