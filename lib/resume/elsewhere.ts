/**
 * The same run's block under other identities (another agent, user_id or session_id): a resume
 * under this identity never sees those rows. Used to tell, after the fact, that a resume started
 * from nothing (or from an older version) while a newer checkpoint sat elsewhere, and that a
 * segment was abandoned because the run went on under another identity.
 */
import { unitsDone as countUnits } from '../diff'
import { isResume } from './detect'
import { ms, sortVersions } from './rows'
import type { ElsewhereRow, Identity, MissedCheckpoint, ResumePoint, VersionInput } from './types'

export function sameIdentity(a: Identity, b: Identity): boolean {
  return a.agent === b.agent && a.userId === b.userId && a.sessionId === b.sessionId
}

/** "session s1", "user u-2, session s1", "agent other-bot": the parts that differ from `own`. */
export function identityPhrase(other: Identity, own: Identity | null): string {
  const parts: string[] = []
  const show = (v: string) => (v === '' ? "''" : v)
  if (!own || other.agent !== own.agent) parts.push(`agent ${show(other.agent)}`)
  if (!own || other.userId !== own.userId) parts.push(`user ${show(other.userId)}`)
  if (!own || other.sessionId !== own.sessionId) parts.push(`session ${show(other.sessionId)}`)
  return parts.join(', ') || 'the same identity'
}

/** Each other identity's newest row written at or before `atMs` (`sorted` in version order). */
function latestElsewhere(sorted: readonly ElsewhereRow[], own: Identity, atMs: number): ElsewhereRow[] {
  const byId = new Map<string, ElsewhereRow>()
  for (const r of sorted) {
    if (sameIdentity(r, own) || ms(r.updatedAt) > atMs) continue
    byId.set(`${r.agent}\u0000${r.userId}\u0000${r.sessionId}`, r)
  }
  return [...byId.values()]
}

/**
 * Points with `missed` filled in: for each process resume that read nothing, or a version older
 * than a live checkpoint another identity of the run had written by then, the newest such checkpoint.
 * `versions` are this identity's rows (to count the units it did again after the resume).
 */
export function markMissedCheckpoints(
  points: readonly ResumePoint[],
  versions: readonly VersionInput[],
  own: Identity,
  elsewhere: readonly ElsewhereRow[],
): ResumePoint[] {
  if (elsewhere.length === 0) return [...points]
  const rows = sortVersions(versions)
  const others = sortVersions(elsewhere)
  return points.map((p) => {
    if (!isResume(p)) return p
    const at = ms(p.at)
    const fromRow =
      p.fromVersion !== null ? (rows.find((r) => r.version === p.fromVersion && !r.isDeleted) ?? null) : null
    const fromAt = fromRow ? ms(fromRow.updatedAt) : -Infinity
    const newer = latestElsewhere(others, own, at)
      .filter((r) => !r.isDeleted && ms(r.updatedAt) > fromAt)
      .sort((a, b) => ms(b.updatedAt) - ms(a.updatedAt))[0]
    if (!newer) return p
    const units = countUnits(newer.content)
    const fromUnits = p.fromVersion === null ? 0 : p.unitsDone
    // What this identity wrote after the resume: how far it got again.
    const after = rows.filter((r) => !r.isDeleted && ms(r.updatedAt) >= at).map((r) => countUnits(r.content))
    const reached = after.length && after.every((u) => u !== null) ? Math.max(...(after as number[])) : null
    const redone =
      units !== null && fromUnits !== null && reached !== null
        ? Math.max(0, Math.min(units, reached) - fromUnits)
        : null
    const missed: MissedCheckpoint = {
      agent: newer.agent,
      userId: newer.userId,
      sessionId: newer.sessionId,
      version: newer.version,
      updatedAt: newer.updatedAt,
      unitsDone: units,
      unitsRedone: redone,
      under: identityPhrase(newer, own),
    }
    return { ...p, missed }
  })
}

/** The first write under another identity after `afterMs` (up to `untilMs` when given), or null. */
export function wroteElsewhereAfter(
  elsewhere: readonly ElsewhereRow[],
  own: Identity,
  afterMs: number,
  untilMs = Infinity,
): ElsewhereRow | null {
  let best: ElsewhereRow | null = null
  for (const r of elsewhere) {
    const t = ms(r.updatedAt)
    if (sameIdentity(r, own) || t <= afterMs || t > untilMs) continue
    if (!best || t < ms(best.updatedAt)) best = r
  }
  return best
}

/** The newest write under another identity at or before `untilMs`, or null. */
export function lastWriteElsewhere(
  elsewhere: readonly ElsewhereRow[],
  own: Identity,
  untilMs: number,
): ElsewhereRow | null {
  let best: ElsewhereRow | null = null
  for (const r of elsewhere) {
    const t = ms(r.updatedAt)
    if (sameIdentity(r, own) || t > untilMs) continue
    if (!best || t > ms(best.updatedAt)) best = r
  }
  return best
}
