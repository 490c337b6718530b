/**
 * The incident summary of a run (GET R/incident.md): markdown to paste into a ticket, built from
 * the same reads as the run page (its header, its checkpoint's block detail, its audit log), so
 * every sentence in it is one the console also shows for this run.
 */
import 'server-only'
import { createTwoFilesPatch } from 'diff'
import type { BlockDetail } from '../endpoints/blocks'
import type { RunDetail } from '../endpoints/runs'
import { describeDiff, diffContents } from '../diff'
import { absoluteTime, cost, count, duration } from '../format'
import { links } from '../links'
import type { RunRef } from '../loom/identity'
import { isResume } from '../resume/detect'
import { FLAG_TEXT, NEAR_LIMIT_RATIO, type RunFlag } from '../triage/flags'
import { runAudit, type AuditEntry } from './audit'
import { getBlockDetail } from './block-detail'
import { getRunDetail } from './run-detail'

/** Lines of the last resume's diff kept in the summary; the rest is on the run page. */
const DIFF_LINES = 60

/** Markdown text with its special characters escaped (goal, reasons, ids are free text). */
const md = (s: string) => s.replace(/([\\`*_{}[\]<>()#+\-!|])/g, '\\$1')
const code = (s: string) => `\`${s.replace(/`/g, "'")}\``

/** What a flag means for this run in particular, from the data the run page shows for it. */
function flagLine(flag: RunFlag, detail: RunDetail, block: BlockDetail | null): string {
  const r = detail.run
  const generic = FLAG_TEXT[flag].meaning
  switch (flag) {
    case 'crash_loop':
      return `attempt ${r.attempt} and ${r.status}: it has been started ${r.attempt} times without succeeding`
    case 'near_limit': {
      const cp = r.checkpoint
      return cp
        ? `its checkpoint holds ${count(cp.chars)} of ${count(cp.charLimit)} characters (≥ ${NEAR_LIMIT_RATIO * 100}%): the next writes may not fit`
        : generic
    }
    case 'near_miss': {
      const other = block?.flags.nearMisses ?? []
      return other.length
        ? `a checkpoint with this run_id exists under ${other.map((n) => `${n.agent} (user ${code(n.userId || '∅')}, session ${code(n.sessionId || '∅')}, v${n.version})`).join('; ')}: a resume under the wrong identity reads none`
        : generic
    }
    case 'missing_blob': {
      const blob = block?.flags.blob
      return blob
        ? `its checkpoint names blob ${code(blob.blobKey)}, which has no row in loom.context_blobs: a resume that loads it fails`
        : generic
    }
    case 'tie':
      return block?.flags.ties.length
        ? `two rows share version ${block.flags.ties.join(', ')} of its checkpoint: which one FINAL returns is not defined`
        : generic
    case 'stalled':
      return `running, and its last checkpoint was written ${r.checkpoint ? absoluteTime(r.checkpoint.updatedAt) : 'never'}: ${generic.toLowerCase()}`
    case 'resumed':
      return r.attempt > 1
        ? `started ${r.attempt} times (resumed ${r.attempt - 1}×)`
        : 'its checkpoint history shows a resume point'
  }
}

function lastResumeDiff(block: BlockDetail): string[] {
  const point = [...block.resume.points].reverse().find(isResume)
  if (!point) return ['No resume point: the run was not picked up again by a new process.']
  const versions = block.history ?? block.versions
  const from = point.fromVersion ? versions.find((v) => v.version === point.fromVersion) : null
  const to = point.firstWrite ? versions.find((v) => v.version === point.firstWrite!.version) : null
  const lines = [
    `Last resume at ${absoluteTime(point.at)}${point.attempt ? ` (attempt ${point.attempt})` : ''}: it read ${point.fromVersion ? `v${point.fromVersion}` : 'no checkpoint (started over)'}${point.firstWrite ? ` and next wrote v${point.firstWrite.version}` : ', and has not written since'}.`,
  ]
  if (!to) return lines
  const before = from && !from.isDeleted ? from.content : ''
  const after = to.isDeleted ? '' : to.content
  lines.push('', `${describeDiff(diffContents(before, after))}`)
  const patch = createTwoFilesPatch(
    `v${point.fromVersion ?? 'none'}`,
    `v${point.firstWrite!.version}`,
    before.endsWith('\n') ? before : `${before}\n`,
    after.endsWith('\n') ? after : `${after}\n`,
    '',
    '',
    { context: 2 },
  )
    .split('\n')
    .slice(1)
    .map((l) => (l.startsWith('--- ') || l.startsWith('+++ ') ? l.trimEnd() : l))
  const kept = patch.slice(0, DIFF_LINES)
  lines.push('', '```diff', ...kept.map((l) => l.replace(/```/g, "'''")), '```')
  if (patch.length > DIFF_LINES) lines.push(`(${patch.length - DIFF_LINES} more lines on the run page)`)
  return lines
}

function auditLines(entries: AuditEntry[], base: string): string[] {
  if (entries.length === 0) return ['None: no operator has written to this run from the console.']
  return entries.slice(0, 20).map((e) => {
    const batch = e.batchId ? ` (batch [${e.batchId.slice(0, 8)}](${base}${links.audit({ batchId: e.batchId })}))` : ''
    const restored = e.restoredVersion ? ` v${e.restoredVersion} as` : ''
    return `- ${absoluteTime(e.at)}: ${md(e.operator)} ${e.action}${e.action.endsWith('e') ? 'd' : 'ed'} ${code(e.blockKey)}${restored} v${e.afterVersion} (was v${e.beforeVersion})${batch}: ${md(e.reason)}`
  })
}

/** The run's incident summary as markdown; `base` is the console's own origin, for links back. */
export async function incidentMarkdown(ref: RunRef, base: string, signal?: AbortSignal): Promise<string> {
  const detail = await getRunDetail(ref, signal)
  const r = detail.run
  const cp = r.checkpoint
  const [block, audit] = await Promise.all([
    cp
      ? getBlockDetail({ ...ref, userId: cp.userId, sessionId: cp.sessionId, blockKey: 'checkpoint' }, signal)
      : Promise.resolve(null),
    runAudit(ref, signal),
  ])
  const runUrl = `${base}${links.run(ref)}`
  const out: string[] = [
    `# Incident: ${md(r.goal || r.runId)}`,
    '',
    `- **Run:** ${code(`${r.org}/${r.namespace}/${r.agent}/${r.runId}`)} (user ${code(r.userId || '∅')}, session ${code(r.sessionId || '∅')})`,
    `- **Status:** ${r.status}, attempt ${r.attempt || '—'}${r.attempt > 1 ? ` (resumed ${r.attempt - 1}×)` : ''}`,
    `- **Started:** ${absoluteTime(r.startedAt)}${r.completedAt ? `; completed ${absoluteTime(r.completedAt)}` : ''}; duration ${duration(r.durationMs)}`,
    `- **Cost:** ${cost(r.costUsd)}; ${count(detail.inputTokens)} tokens in, ${count(detail.outputTokens)} out; ${count(r.turns)} turns`,
    `- **Checkpoint now:** ${cp ? `v${cp.version}${cp.isDeleted ? ' (cleared: the next resume() returns None)' : `, ${count(cp.chars)} of ${count(cp.charLimit)} characters`}` : 'none'}`,
    ...(r.hasRunRow ? [] : ['- This run never called `run.begin`: it is known only from its working-memory blocks.']),
    ...(detail.run.outcome ? [`- **Outcome:** ${md(detail.run.outcome)}`] : []),
    '',
    '## Flags',
    '',
    ...(r.flags.length ? r.flags.map((f) => `- **${FLAG_TEXT[f].label}**: ${flagLine(f, detail, block)}`) : ['None.']),
    '',
    '## Why it resumed where it did',
    '',
    ...(block
      ? block.resume.explanation.map((line) => `- ${line}`)
      : ['The run has no checkpoint block, so a resume starts from nothing.']),
    '',
    '## The last resume',
    '',
    ...(block ? lastResumeDiff(block) : ['No checkpoint.']),
    '',
    '## Operator actions',
    '',
    ...auditLines(audit.entries, base),
    '',
    '## Links',
    '',
    `- Run: ${runUrl}`,
    `- Checkpoint and resume explanation: ${runUrl}?tab=checkpoint`,
    `- Timeline: ${runUrl}?tab=timeline`,
    `- Compared with its last success: ${base}${links.compare(ref)}`,
    '',
  ]
  return out.join('\n')
}
