/** Resume points as sentences an operator can read, true for the run they describe. */
import { identityPhrase } from './elsewhere'
import { formatDuration, formatUtc } from './time'
import type { Identity, MissedCheckpoint, ResumePoint } from './types'

export function itemsDone(n: number): string {
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

/** "v40 under session s1 existed: 40 items redone". */
export function missedPhrase(m: MissedCheckpoint, own: Identity | null = null): string {
  const where = `v${m.version} under ${own ? identityPhrase(m, own) : m.under} existed`
  if (m.unitsRedone !== null && m.unitsRedone > 0)
    return `${where}: ${m.unitsRedone} item${m.unitsRedone === 1 ? '' : 's'} redone`
  if (m.unitsDone !== null) return `${where} (${itemsDone(m.unitsDone)} there)`
  return `${where}, unseen by this resume`
}

/** "42m 11s without a write (the last: v12 by operator:alice)". */
export function gapPhrase(p: ResumePoint): string {
  if (p.gapMs === null) return 'long gap without a write'
  const last = p.gapFrom ? ` (the last: v${p.gapFrom.version} by ${p.gapFrom.actor || '(no actor)'})` : ''
  return `${formatDuration(p.gapMs)} without a write${last}`
}

function reasonPhrases(p: ResumePoint): string[] {
  const out: string[] = []
  for (const r of p.reasons) {
    if (r === 'run-begin') out.push(p.attempt !== null ? `run.begin attempt ${p.attempt}` : 'run.begin')
    else if (r === 'new-process')
      out.push(p.fromTrace !== null ? `new source_trace (was ${p.fromTrace || '(empty)'})` : 'new source_trace')
    else if (r === 'long-gap') out.push(gapPhrase(p))
  }
  return out
}

/**
 * One readable sentence per point, e.g. "Process host-b/pid-5150 resumed at … from v120 (120 items done);
 * its first write v121 added item-121". `own` is the block's identity, to name where a missed checkpoint sat.
 */
export function explainResume(points: readonly ResumePoint[], own: Identity | null = null): string[] {
  return points.map((p) => {
    const when = formatUtc(p.at)
    const actor = p.actor ?? 'an operator'
    const v = p.firstWrite?.version ?? '?'
    if (p.reasons.includes('operator-clear')) {
      const was =
        p.fromVersion !== null
          ? ` (was v${p.fromVersion}${p.unitsDone !== null ? `, ${itemsDone(p.unitsDone)}` : ''})`
          : ''
      return `${actor} cleared the block at ${when} with tombstone v${v}${was}; resume returns None after it`
    }
    if (p.reasons.includes('operator-restore')) {
      const what =
        p.restoredFrom !== null ? `restored v${p.restoredFrom} as v${v}` : `restored an earlier version as v${v}`
      const from =
        p.fromVersion !== null
          ? `replacing v${p.fromVersion}`
          : p.previous?.isDeleted
            ? `after tombstone v${p.previous.version}`
            : 'on an empty block'
      return `${actor} ${what} at ${when}, ${from} (${p.firstWrite?.summary ?? 'no write'})`
    }
    if (p.reasons.includes('operator-edit')) {
      const from =
        p.fromVersion !== null
          ? `v${p.fromVersion}`
          : p.previous?.isDeleted
            ? `tombstone v${p.previous.version}`
            : 'nothing'
      return `${actor} edited the block at ${when}: ${from} → v${v} (${p.firstWrite?.summary ?? 'no write'})`
    }
    const reasons = reasonPhrases(p)
    const detected = reasons.length ? ` — ${reasons.join(', ')}` : ''
    const missed = p.missed ? `; ${missedPhrase(p.missed, own)}` : ''
    if (!p.firstWrite) {
      return `Attempt ${p.attempt ?? '?'} began at ${when}; a resume then read ${fromPhrase(p)}${missed}; nothing written since${detected}`
    }
    const who = p.toTrace ? `Process ${p.toTrace}` : 'A process with no source_trace'
    let s = `${who} resumed at ${when} from ${fromPhrase(p)}${missed}; its first write v${p.firstWrite.version} ${writePhrase(p.firstWrite.summary)}`
    if (p.historyGap)
      s += ` (earlier versions are missing from the history, merged away; it may have resumed from a later version)`
    return s + detected
  })
}
