/**
 * Which attempt (run.begin) wrote which versions of a block, so that "3 attempts" never stands
 * next to an account where one of them is missing: every attempt is listed, with what it wrote,
 * or with the fact that it wrote nothing here.
 */
import { identityPhrase, sameIdentity } from './elsewhere'
import { ms, sortVersions } from './rows'
import { formatUtc } from './time'
import type { ElsewhereRow, Identity, ResumePoint, Segment } from './types'
import type { AttemptNote } from '../endpoints/resume'
export type { AttemptNote } from '../endpoints/resume'

export type AttemptInput = {
  attempts: number
  startedAt?: string | null
  /** Every run.begin time known (attempt 1 included when known). */
  begins?: readonly { attempt: number; at: string }[]
  identity?: Identity
  elsewhere?: readonly ElsewhereRow[]
}

/** One note per attempt 1…N, from the segments and the points they start at. */
export function accountAttempts(
  segs: readonly Segment[],
  points: readonly ResumePoint[],
  input: AttemptInput,
): AttemptNote[] {
  const n = Math.max(0, Math.floor(input.attempts))
  if (n === 0) return []
  const beganAt = new Map<number, string>()
  if (input.startedAt) beganAt.set(1, input.startedAt)
  for (const b of input.begins ?? []) beganAt.set(b.attempt, b.at)
  for (const p of points) if (p.attempt !== null && p.reasons.includes('run-begin')) beganAt.set(p.attempt, p.at)

  const wrote = new Map<number, { from: string; to: string; writes: number }>()
  let current: number | null = null
  let seenProcess = false
  let unattributed: AttemptNote['unattributed'] = null
  for (const s of segs) {
    if (s.kind !== 'process') continue
    const point = s.startPoint !== null ? points[s.startPoint] : null
    if (point?.attempt != null) current = point.attempt
    else if (!seenProcess) current = 1
    // A new process with no run.begin of its own: which attempt it was is not known.
    else if (point?.reasons.includes('new-process')) current = null
    seenProcess = true
    if (current === null && s.writes > 0 && s.fromVersion !== null && s.toVersion !== null) {
      unattributed = unattributed
        ? { processes: unattributed.processes + 1, from: unattributed.from, to: s.toVersion }
        : { processes: 1, from: s.fromVersion, to: s.toVersion }
    }
    if (current === null || s.writes === 0 || s.fromVersion === null || s.toVersion === null) continue
    const w = wrote.get(current)
    wrote.set(
      current,
      w
        ? { from: w.from, to: s.toVersion, writes: w.writes + s.writes }
        : { from: s.fromVersion, to: s.toVersion, writes: s.writes },
    )
  }

  return Array.from({ length: n }, (_, k): AttemptNote => {
    const attempt = k + 1
    const at = beganAt.get(attempt) ?? null
    const mine = wrote.get(attempt) ?? null
    let elsewhere: AttemptNote['elsewhere'] = null
    if (!mine && at && input.identity && input.elsewhere?.length) {
      const next = [...beganAt.entries()].filter(([a]) => a > attempt).sort((x, y) => x[0] - y[0])[0]
      const until = next ? ms(next[1]) : Infinity
      const own = input.identity
      const rows = sortVersions(
        input.elsewhere.filter((r) => !sameIdentity(r, own) && ms(r.updatedAt) >= ms(at) && ms(r.updatedAt) < until),
      )
      if (rows.length) {
        const first = rows[0]
        const same = rows.filter((r) => sameIdentity(r, first))
        elsewhere = {
          agent: first.agent,
          userId: first.userId,
          sessionId: first.sessionId,
          from: same[0].version,
          to: same[same.length - 1].version,
        }
      }
    }
    return { attempt, beganAt: at, wrote: mine, elsewhere, unattributed: !mine && !at ? unattributed : null }
  })
}

function range(from: string, to: string): string {
  return from === to ? `v${from}` : `v${from}–v${to}`
}

/** Attempts whose begin time is lost and that wrote nothing attributable: told once for a run of them. */
function unknownRun(notes: readonly AttemptNote[]): string {
  const first = notes[0].attempt
  const last = notes[notes.length - 1].attempt
  const many = notes.length > 1
  const which = many
    ? `attempts ${first}–${last} (run.begin times not kept)`
    : `attempt ${first} (run.begin time not kept)`
  const u = notes[0].unattributed
  if (!u) return `${which} wrote no checkpoint here`
  const procs = `${u.processes} process${u.processes === 1 ? '' : 'es'} here with no run.begin matched wrote ${range(u.from, u.to)}`
  return `${which}: ${procs}${many || u.processes > 1 ? '; which attempt wrote which is not known' : ''}`
}

/** "3 attempts: attempt 1 (began …) wrote v1–v11; attempt 2 (run.begin time not kept) wrote no checkpoint here; …". */
export function describeAttempts(notes: readonly AttemptNote[], own: Identity | null = null): string | null {
  if (notes.length < 2) return null
  const parts: string[] = []
  for (let i = 0; i < notes.length;) {
    const a = notes[i]
    if (!a.wrote && !a.elsewhere && !a.beganAt) {
      let j = i
      while (j + 1 < notes.length && !notes[j + 1].wrote && !notes[j + 1].elsewhere && !notes[j + 1].beganAt) j++
      parts.push(unknownRun(notes.slice(i, j + 1)))
      i = j + 1
      continue
    }
    const began = a.beganAt ? `began ${formatUtc(a.beganAt)}` : 'run.begin time not kept'
    let what: string
    if (a.wrote) what = `wrote ${range(a.wrote.from, a.wrote.to)}`
    else if (a.elsewhere)
      what = `wrote ${range(a.elsewhere.from, a.elsewhere.to)} under ${identityPhrase(a.elsewhere, own)}, not here`
    else what = 'wrote no checkpoint here'
    parts.push(`attempt ${a.attempt} (${began}) ${what}`)
    i++
  }
  return `${notes.length} attempts: ${parts.join('; ')}.`
}

/**
 * Attempts after the first that no resume point stands for: their run.begin matched no write here
 * (its time lost, or nothing written), and no process without a run.begin of its own may be them.
 * Counted with the resume points so that "resumed N×", the resume points and the diagram agree.
 */
export function silentAttempts(notes: readonly AttemptNote[], points: readonly ResumePoint[]): AttemptNote[] {
  const pointed = new Set(
    points.filter((p) => p.reasons.includes('run-begin') && p.attempt !== null).map((p) => p.attempt as number),
  )
  return notes.filter((a) => a.attempt > 1 && !pointed.has(a.attempt) && !a.wrote && !a.unattributed)
}

/** One sentence for a silent attempt: "Attempt 2 (run.begin time not kept) wrote no checkpoint here". */
export function silentAttemptText(a: AttemptNote, own: Identity | null = null): string {
  const began = a.beganAt ? `began ${formatUtc(a.beganAt)}` : 'run.begin time not kept'
  const what = a.elsewhere
    ? `wrote ${range(a.elsewhere.from, a.elsewhere.to)} under ${identityPhrase(a.elsewhere, own)}, not here`
    : 'wrote no checkpoint here'
  return `Attempt ${a.attempt} (${began}) ${what}, so no resume point of this block stands for it.`
}
