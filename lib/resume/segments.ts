/**
 * A block's history cut into segments: runs of writes by one process between resume points,
 * and operator actions (consecutive ones folded into one segment). Each segment says how it
 * ended, from the evidence only: a later process of the same identity, writes under another
 * identity, the run's completion time, a tombstone, or silence.
 */
import { unitsDone as countUnits } from '../diff'
import { gapStats } from './detect'
import { lastWriteElsewhere, wroteElsewhereAfter } from './elsewhere'
import { isOperatorActor, ms, sortVersions, versionKey } from './rows'
import type { Identity, OperatorStep, ResumePoint, Segment, SegmentEnd, SegmentOptions, VersionInput } from './types'

const FINISHED = new Set(['succeeded', 'failed', 'cancelled'])

type Group = { rows: VersionInput[]; startPoint: number | null; kind: 'process' | 'operator'; at?: string }

function group(rows: readonly VersionInput[], points: readonly ResumePoint[]): Group[] {
  const startsAt = new Map<number, number>()
  points.forEach((p, pi) => {
    if (!p.firstWrite) return
    const fw = p.firstWrite
    let i = rows.findIndex((r) => r.version === fw.version && ms(r.updatedAt) === ms(fw.at))
    if (i < 0) i = rows.findIndex((r) => versionKey(r.version) === versionKey(fw.version))
    if (i >= 0 && !startsAt.has(i)) startsAt.set(i, pi)
  })
  const groups: Group[] = []
  rows.forEach((r, i) => {
    const op = isOperatorActor(r.actor)
    const prev = i > 0 ? rows[i - 1] : null
    const cur = groups[groups.length - 1]
    let split: boolean
    if (op) split = !cur || cur.kind !== 'operator'
    else
      split =
        !cur ||
        cur.kind === 'operator' ||
        startsAt.has(i) ||
        (prev !== null && (prev.isDeleted || prev.sourceTrace !== r.sourceTrace))
    if (split) groups.push({ rows: [r], startPoint: startsAt.get(i) ?? null, kind: op ? 'operator' : 'process' })
    else cur.rows.push(r)
  })
  // A resumed process that wrote nothing: an empty segment where its begin falls in time.
  points.forEach((p, pi) => {
    if (p.firstWrite) return
    const t = ms(p.at)
    let k = groups.length
    while (k > 0 && ms(groups[k - 1].rows[0]?.updatedAt ?? groups[k - 1].at ?? '') > t) k--
    groups.splice(k, 0, { rows: [], startPoint: pi, kind: 'process', at: p.at })
  })
  return groups
}

function operatorSteps(g: Group, pointAt: ReadonlyMap<string, ResumePoint>): OperatorStep[] {
  return g.rows.map((r) => {
    const p = pointAt.get(`${r.version}\u0000${r.actor}`)
    const restore = !!p?.reasons.includes('operator-restore')
    return {
      kind: r.isDeleted ? 'clear' : restore ? 'restore' : 'edit',
      version: r.version,
      actor: r.actor,
      at: r.updatedAt,
      restoredFrom: restore ? (p?.restoredFrom ?? null) : null,
    }
  })
}

/** Time a process group last acted at or before `until` (its last such row, or its begin when it wrote nothing). */
function lastActivity(g: Group, until: number): number | null {
  if (g.rows.length === 0) return g.at && ms(g.at) <= until ? ms(g.at) : null
  let t: number | null = null
  for (const r of g.rows) if (ms(r.updatedAt) <= until) t = ms(r.updatedAt)
  return t
}

/** Process segments and folded operator actions, in order, each with how it ended. */
export function segments(
  versions: readonly VersionInput[],
  points: readonly ResumePoint[],
  opts: SegmentOptions = {},
): Segment[] {
  const rows = sortVersions(versions)
  const groups = group(rows, points)
  const threshold = gapStats(rows, opts).thresholdMs
  const elsewhere = opts.elsewhere ?? []
  const own = opts.identity ?? null
  const finished = !!opts.runStatus && FINISHED.has(opts.runStatus)
  const lastProcess = groups.findLastIndex((g) => g.kind === 'process')
  const pointAt = new Map<string, ResumePoint>()
  for (const p of points)
    if (p.firstWrite && p.actor !== null) pointAt.set(`${p.firstWrite.version}\u0000${p.actor}`, p)

  // The one process segment that wrote last before run.complete, if it is under this identity.
  let finalGroup = -1
  if (finished) {
    const until = opts.completedAt ? ms(opts.completedAt) : Infinity
    let best = -Infinity
    groups.forEach((g, gi) => {
      if (g.kind !== 'process') return
      const t = lastActivity(g, until)
      if (t !== null && t >= best) [best, finalGroup] = [t, gi]
    })
    const other = own && opts.completedAt ? lastWriteElsewhere(elsewhere, own, until) : null
    if (other && ms(other.updatedAt) > best) finalGroup = -1
  }

  return groups.map((g, gi): Segment => {
    const first = g.rows[0]
    const last = g.rows[g.rows.length - 1]
    const endAt = last ? ms(last.updatedAt) : g.at ? ms(g.at) : 0
    const endsWithTombstone = last?.isDeleted ?? false
    const laterProcess = gi < lastProcess
    let endedBy: SegmentEnd
    let continuedUnder: Identity | null = null
    if (g.kind === 'operator') endedBy = endsWithTombstone ? 'cleared' : 'operator'
    else if (gi === finalGroup) endedBy = 'completed'
    else if (laterProcess) {
      // The same process going on after an operator's write (no resume point) did not end at all.
      const next = groups.slice(gi + 1).find((x) => x.kind === 'process')
      const same = !!next && next.startPoint === null && !!last && next.rows[0]?.sourceTrace === last.sourceTrace
      endedBy = same ? 'operator' : 'crashed'
    } else {
      const went = own ? wroteElsewhereAfter(elsewhere, own, endAt) : null
      if (went) {
        endedBy = 'abandoned'
        continuedUnder = { agent: went.agent, userId: went.userId, sessionId: went.sessionId }
      } else if (endsWithTombstone) endedBy = 'cleared'
      else if (opts.runStatus === 'running')
        endedBy = opts.now !== undefined && opts.now - endAt > threshold ? 'stalled' : 'running'
      else endedBy = 'unknown'
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
      continuedUnder,
      endsWithTombstone,
      unitsDone: lastLive ? countUnits(lastLive.content) : null,
      startReasons: point ? [...point.reasons] : [],
      startPoint: g.startPoint,
      steps: g.kind === 'operator' ? operatorSteps(g, pointAt) : [],
    }
  })
}
