/**
 * The runs list as CSV: every run the list's filters select, newest first, read page by page
 * (the same pages, so the same runs and flags the runs page shows), up to a cap.
 */
import type { RunSummary } from '../endpoints/runs'
import { decodeCursor } from '../api/cursor'
import { links } from '../links'
import type { RunsFilter } from '../run-set/filter'
import { listRuns } from './runs'

export const CSV_COLUMNS = [
  'org',
  'namespace',
  'agent',
  'run_id',
  'user_id',
  'session_id',
  'status',
  'goal',
  'attempt',
  'started_at',
  'completed_at',
  'duration_ms',
  'turns',
  'cost_usd',
  'checkpoint_version',
  'checkpoint_updated_at',
  'checkpoint_cleared',
  'flags',
  'link',
] as const

/** Rows read per statement while exporting. */
const PAGE = 200

/**
 * One CSV field (RFC 4180 quoting). A value a spreadsheet would run as a formula (=, +, -, @, tab,
 * CR at its start) is prefixed with a quote: goals and ids are written by agents, not by us.
 */
export function csvField(value: string | number | boolean | null): string {
  if (value === null) return ''
  let s = String(value)
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(s)) s = `'${s}`
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s
}

export function csvRow(r: RunSummary): string {
  const cp = r.checkpoint
  const values: (string | number | boolean | null)[] = [
    r.org,
    r.namespace,
    r.agent,
    r.runId,
    r.userId,
    r.sessionId,
    r.status,
    r.goal,
    r.attempt,
    r.startedAt,
    r.completedAt,
    r.durationMs,
    r.turns,
    r.costUsd,
    cp?.version ?? null,
    cp?.updatedAt ?? null,
    cp ? cp.isDeleted : null,
    r.flags.join(' '),
    links.run(r),
  ]
  return values.map(csvField).join(',')
}

/** The CSV text of up to `max` runs, and whether the filters select more than that. */
export async function runsCsv(
  filter: RunsFilter,
  max: number,
  signal?: AbortSignal,
): Promise<{ text: string; runs: number; more: boolean }> {
  const lines = [CSV_COLUMNS.join(',')]
  let cursor: string | null | undefined
  let runs = 0
  while (cursor !== null && runs < max) {
    const page = await listRuns({
      filter,
      cursor: cursor ? (decodeCursor(cursor) ?? undefined) : undefined,
      limit: Math.min(PAGE, max - runs),
      signal,
    })
    cursor = page.nextCursor
    runs += page.runs.length
    for (const r of page.runs) lines.push(csvRow(r))
  }
  return { text: `${lines.join('\r\n')}\r\n`, runs, more: cursor !== null && cursor !== undefined }
}
