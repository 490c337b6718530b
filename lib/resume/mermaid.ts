/**
 * The resume flow of a block as mermaid `flowchart` text: one node per segment, edges labelled
 * with the reason the next segment started. Every label is escaped, since source_trace and actor
 * values are arbitrary text.
 */
import type { ResumePoint, ResumeReason, Segment } from './index'
import { timeMs } from './time'

export type FlowOptions = {
  direction?: 'TD' | 'LR'
  /** Longest label line before it is cut with "…" (default 48). */
  maxLineLength?: number
}

/** Characters replaced by mermaid entity codes (`#quot;`, `#35;`, …) inside quoted labels. */
const ESCAPES: Record<string, string> = {
  '"': '#quot;',
  '#': '#35;',
  '&': '#amp;',
  '<': '#lt;',
  '>': '#gt;',
  '[': '#91;',
  ']': '#93;',
  '(': '#40;',
  ')': '#41;',
  '{': '#123;',
  '}': '#125;',
  '|': '#124;',
  '`': '#96;',
  '%': '#37;',
  '\\': '#92;',
  ';': '#59;',
}

/** Text made safe for a double-quoted mermaid label: control characters become spaces, specials become entity codes. */
export function mermaidText(text: string, maxLength = Infinity): string {
  let t = text.replace(/[\u0000-\u001f\u007f\u2028\u2029]+/g, ' ')
  const chars = [...t]
  if (chars.length > maxLength) t = `${chars.slice(0, Math.max(1, maxLength - 1)).join('')}…`
  return t.replace(/["#&<>[\](){}|`%\\;]/g, (c) => ESCAPES[c])
}

function shortTime(iso: string): string {
  const t = timeMs(iso)
  return Number.isNaN(t) ? iso : new Date(t).toISOString().slice(0, 19).replace('T', ' ')
}

function versions(s: Segment): string {
  if (s.fromVersion === null) return 'no write yet'
  return s.fromVersion === s.toVersion ? `v${s.fromVersion}` : `v${s.fromVersion}–v${s.toVersion}`
}

const REASON_LABEL: Record<ResumeReason, string> = {
  'run-begin': 'run.begin',
  'new-process': 'new process',
  'long-gap': 'long gap',
  'operator-edit': 'operator edit',
  'operator-clear': 'operator clear',
}

function reasonLabel(reasons: readonly ResumeReason[], point: ResumePoint | null): string {
  return reasons
    .map((r) => (r === 'run-begin' && point?.attempt != null ? `run.begin attempt ${point.attempt}` : REASON_LABEL[r]))
    .join(' · ')
}

/** Mermaid flowchart text of segments (from `segments()`) and the points they start at. */
export function resumeFlowMermaid(segs: readonly Segment[], points: readonly ResumePoint[], opts: FlowOptions = {}): string {
  const max = opts.maxLineLength ?? 48
  const label = (lines: string[]) => lines.map((l) => mermaidText(l, max)).join('<br/>')
  const out = [`flowchart ${opts.direction ?? 'TD'}`]
  if (segs.length === 0) {
    out.push('  empty(["no versions"])')
    return out.join('\n')
  }
  /** The node an outgoing edge leaves from (a segment's tombstone node when it has one). */
  const exitOf = new Map<string, string>()
  const edges: string[] = []
  for (const s of segs) {
    const time = s.startAt === s.endAt ? shortTime(s.startAt) : `${shortTime(s.startAt)} → ${shortTime(s.endAt)}`
    if (s.kind === 'operator') {
      const what = s.endsWithTombstone ? `cleared: tombstone v${s.toVersion}` : `edited: ${versions(s)}`
      const text = label([s.actor ?? 'operator', what, `${time} UTC`])
      // Hexagon for an edit, trapezoid for a clear.
      out.push(s.endsWithTombstone ? `  ${s.id}[/"${text}"\\]` : `  ${s.id}{{"${text}"}}`)
      exitOf.set(s.id, s.id)
      continue
    }
    const lines = [s.sourceTrace === null ? 'resumed, no write yet' : s.sourceTrace || '(no source_trace)', versions(s)]
    if (s.writes > 0) lines[1] += ` · ${s.writes} write${s.writes === 1 ? '' : 's'}`
    if (s.unitsDone !== null) lines.push(`${s.unitsDone} item${s.unitsDone === 1 ? '' : 's'} done`)
    lines.push(`${time} UTC`, s.endedBy === 'completed' && s.endStatus ? `ended: run ${s.endStatus}` : `ended: ${s.endedBy}`)
    out.push(`  ${s.id}["${label(lines)}"]`)
    if (s.endsWithTombstone) {
      const t = `${s.id}_tombstone`
      out.push(`  ${t}(("${label([`tombstone v${s.toVersion}`])}"))`)
      edges.push(`  ${s.id} --> ${t}`)
      exitOf.set(s.id, t)
    } else exitOf.set(s.id, s.id)
  }
  for (let i = 1; i < segs.length; i++) {
    const prev = segs[i - 1]
    const s = segs[i]
    const point = s.startPoint !== null ? (points[s.startPoint] ?? null) : null
    const text = s.startReasons.length ? reasonLabel(s.startReasons, point) : prev.kind === 'operator' ? 'continues' : ''
    const from = exitOf.get(prev.id) ?? prev.id
    edges.push(text ? `  ${from} -->|"${mermaidText(text, 80)}"| ${s.id}` : `  ${from} --> ${s.id}`)
  }
  return [...out, ...edges].join('\n')
}
