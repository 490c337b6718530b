/**
 * The resume flow of a block: one node per segment (operator actions folded), edges labelled with
 * what started the next segment. Built once as a node list, then written as mermaid `flowchart`
 * text or shown as a plain list, so both say the same. Every label is escaped for mermaid, since
 * source_trace and actor values are arbitrary text.
 */
import { identityPhrase } from './elsewhere'
import { timeMs } from './time'
import { silentAttempts, type AttemptNote } from './attempts'
import type { Identity, OperatorStep, ResumePoint, ResumeReason, Segment } from './types'

export type FlowOptions = {
  direction?: 'TD' | 'LR'
  /** Longest label line before it is cut with "…" (default 48). */
  maxLineLength?: number
  /** The block's identity, to name where an abandoned run went on. */
  identity?: Identity | null
  /** The run's attempts: those no resume point stands for get a node of their own. */
  attempts?: readonly AttemptNote[]
}

export type FlowShape = 'process' | 'operator' | 'operator-clear' | 'tombstone' | 'empty' | 'missed'

export type FlowNode = {
  id: string
  shape: FlowShape
  lines: string[]
  /** The node this one follows and what started it ('' when nothing is known); dotted: the order is not known. */
  from: { id: string; label: string; dotted?: boolean } | null
  /** A node that feeds into another (dotted), such as another identity's checkpoint a resume missed. */
  to?: { id: string; label: string }
}

/** Beyond this many nodes a diagram is shown as a list (the same lines), so text keeps its size. */
export const FLOW_LIST_THRESHOLD = 12

/** Operator actions named in a folded node before "+N more". */
const STEPS_SHOWN = 4

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
  'operator-restore': 'operator restore',
}

function reasonLabel(reasons: readonly ResumeReason[], point: ResumePoint | null): string {
  return reasons
    .map((r) => (r === 'run-begin' && point?.attempt != null ? `run.begin attempt ${point.attempt}` : REASON_LABEL[r]))
    .join(' · ')
}

/** The last line(s) of a process node, how it ended (a newline separates lines). */
export function endLabel(s: Segment, own: Identity | null = null): string {
  switch (s.endedBy) {
    case 'completed':
      return s.endStatus ? `ended: run ${s.endStatus}` : 'ended: run completed'
    case 'crashed':
      return 'ended: crashed, a later process resumed'
    case 'abandoned':
      return s.continuedUnder
        ? `ended: abandoned\nthe run went on under ${identityPhrase(s.continuedUnder, own)}`
        : 'ended: abandoned'
    case 'cleared':
      return 'ended: cleared its checkpoint'
    case 'stalled':
      return 'ended: stalled, no write since'
    case 'running':
      return 'still running'
    case 'operator':
      return 'went on after an operator action'
    default:
      return 'ended: no later write'
  }
}

export function stepLabel(step: OperatorStep): string {
  if (step.kind === 'clear') return `cleared: tombstone v${step.version}`
  if (step.kind === 'restore')
    return step.restoredFrom !== null
      ? `restored v${step.restoredFrom} as v${step.version}`
      : `restored an earlier version as v${step.version}`
  return `edited: v${step.version}`
}

function operatorLines(s: Segment): string[] {
  const actors = [...new Set(s.steps.map((x) => x.actor))]
  const lines = [actors.join(', ') || 'operator']
  if (s.steps.length > 1) lines.push(`${s.steps.length} operator actions`)
  for (const step of s.steps.slice(0, STEPS_SHOWN)) lines.push(stepLabel(step))
  if (s.steps.length > STEPS_SHOWN) lines.push(`+${s.steps.length - STEPS_SHOWN} more`)
  return lines
}

/** The flow as nodes in order (a segment's tombstone gets a node of its own). */
export function flowNodes(
  segs: readonly Segment[],
  points: readonly ResumePoint[],
  own: Identity | null = null,
  attempts: readonly AttemptNote[] = [],
): FlowNode[] {
  const nodes: FlowNode[] = []
  const silent = silentAttempts(attempts, points)
  let exit: string | null = null
  let prev: Segment | null = null
  for (const s of segs) {
    const time = s.startAt === s.endAt ? shortTime(s.startAt) : `${shortTime(s.startAt)} → ${shortTime(s.endAt)}`
    const point = s.startPoint !== null ? (points[s.startPoint] ?? null) : null
    const label = s.startReasons.length
      ? reasonLabel(s.startReasons, point)
      : prev?.kind === 'operator'
        ? 'continues'
        : ''
    const from = exit ? { id: exit, label } : null
    if (s.kind === 'operator') {
      nodes.push({
        id: s.id,
        shape: s.endsWithTombstone ? 'operator-clear' : 'operator',
        lines: [...operatorLines(s), `${time} UTC`],
        from,
      })
      exit = s.id
    } else {
      const lines = [
        s.sourceTrace === null ? 'resumed, no write yet' : s.sourceTrace || '(no source_trace)',
        versions(s),
      ]
      if (s.writes > 0) lines[1] += ` · ${s.writes} write${s.writes === 1 ? '' : 's'}`
      if (s.unitsDone !== null) lines.push(`${s.unitsDone} item${s.unitsDone === 1 ? '' : 's'} done`)
      lines.push(`${time} UTC`, ...endLabel(s, own).split('\n'))
      nodes.push({ id: s.id, shape: s.writes === 0 ? 'empty' : 'process', lines, from })
      exit = s.id
      if (s.endsWithTombstone) {
        const t = `${s.id}_tombstone`
        nodes.push({ id: t, shape: 'tombstone', lines: [`tombstone v${s.toVersion}`], from: { id: s.id, label: '' } })
        exit = t
      }
    }
    prev = s
  }
  // An attempt that wrote nothing here hangs off the node before the next known attempt began (or the
  // last node), dotted: when it ran between them is not known.
  for (const a of silent) {
    const nextIdx = segs.findIndex((s) => {
      const p = s.startPoint !== null ? points[s.startPoint] : null
      return !!p?.attempt && p.attempt > a.attempt
    })
    const nextNode = nextIdx >= 0 ? nodes.findIndex((n) => n.id === segs[nextIdx].id) : -1
    const anchor = nextNode > 0 ? nodes[nextNode - 1] : nodes[nodes.length - 1]
    if (!anchor) continue
    const where = a.elsewhere
      ? `wrote ${a.elsewhere.from === a.elsewhere.to ? `v${a.elsewhere.from}` : `v${a.elsewhere.from}–v${a.elsewhere.to}`} under ${identityPhrase(a.elsewhere, own)}`
      : 'wrote no checkpoint here'
    nodes.push({
      id: `attempt_${a.attempt}`,
      shape: 'empty',
      lines: [
        `attempt ${a.attempt}`,
        a.beganAt ? `began ${shortTime(a.beganAt)} UTC` : 'run.begin time not kept',
        where,
      ],
      from: { id: anchor.id, label: `run.begin attempt ${a.attempt}`, dotted: true },
    })
  }
  // A checkpoint of the same run under another identity that a resume here did not see: its own node,
  // dotted into the segment that started over without it, so both identities' work is in the picture.
  for (const s of segs) {
    const missed = s.startPoint !== null ? (points[s.startPoint]?.missed ?? null) : null
    if (!missed) continue
    const lines = [
      own ? `under ${identityPhrase(missed, own)}` : `under ${missed.under}`,
      `checkpoint v${missed.version}`,
    ]
    if (missed.unitsDone !== null) lines.push(`${missed.unitsDone} item${missed.unitsDone === 1 ? '' : 's'} done`)
    lines.push(`${shortTime(missed.updatedAt)} UTC`)
    const redone = missed.unitsRedone !== null && missed.unitsRedone > 0 ? `: ${missed.unitsRedone} redone` : ''
    const at = nodes.findIndex((n) => n.id === s.id)
    nodes.splice(at < 0 ? nodes.length : at, 0, {
      id: `${s.id}_missed`,
      shape: 'missed',
      lines,
      from: null,
      to: { id: s.id, label: `not seen by this resume${redone}` },
    })
  }
  return nodes
}

const OPEN: Record<FlowShape, [string, string]> = {
  process: ['["', '"]'],
  empty: ['["', '"]'],
  // Hexagon for edits and restores, trapezoid for a clear, circle for a process's own tombstone.
  operator: ['{{"', '"}}'],
  'operator-clear': ['[/"', '"\\]'],
  tombstone: ['(("', '"))'],
  // A subroutine box: state kept elsewhere (another identity's checkpoint).
  missed: ['[["', '"]]'],
}

/** Mermaid flowchart text of segments (from `segments()`) and the points they start at. */
export function resumeFlowMermaid(
  segs: readonly Segment[],
  points: readonly ResumePoint[],
  opts: FlowOptions = {},
): string {
  const max = opts.maxLineLength ?? 48
  const out = [`flowchart ${opts.direction ?? 'TD'}`]
  const nodes = flowNodes(segs, points, opts.identity ?? null, opts.attempts ?? [])
  if (nodes.length === 0) {
    out.push('  empty(["no versions"])')
    return out.join('\n')
  }
  const edges: string[] = []
  for (const n of nodes) {
    const [open, close] = OPEN[n.shape]
    out.push(`  ${n.id}${open}${n.lines.map((l) => mermaidText(l, max)).join('<br/>')}${close}`)
    if (n.to) edges.push(`  ${n.id} -.->|"${mermaidText(n.to.label, 80)}"| ${n.to.id}`)
    if (!n.from) continue
    const arrow = n.from.dotted ? '-.->' : '-->'
    edges.push(
      n.from.label
        ? `  ${n.from.id} ${arrow}|"${mermaidText(n.from.label, 80)}"| ${n.id}`
        : `  ${n.from.id} ${arrow} ${n.id}`,
    )
  }
  return [...out, ...edges].join('\n')
}
