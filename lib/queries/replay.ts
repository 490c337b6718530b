/**
 * Replay preview: before an operator moves a block back to an earlier version (or clears it), what
 * resuming from there makes the agent do again, and what the run did after that version. Counts
 * come from the run's own rows, each table read by its key prefix and the run id.
 */
import { z } from 'zod'
import { selectRows } from '../clickhouse/query'
import { param, sql, trusted, type Sql } from '../clickhouse/sql'
import { chTimeToIso, toChTime } from '../tables/time'
import { unitsToRedo } from '../diff'
import { notFound } from '../errors'
import type { BlockRef } from '../loom/identity'
import { versionString } from '../tables/values'
import { runLatestRow } from '../loom/runs'
import { blockScope, runScope } from '../loom/scope'
import { source, tableNames } from '../loom/tables'
import { CH_TIME_TYPE } from '../run-set/conditions'
import { existingTables } from '../clickhouse/schema-presence'
import { WM_COLUMNS } from '../tables/working-memory'
import type { ReplayPreview } from '../endpoints/blocks'
export type { ReplayCounts, ReplayPreview } from '../endpoints/blocks'

const versionRow = z
  .object({
    v: versionString,
    written_at: z.string().transform(chTimeToIso),
    deleted: z.coerce.number(),
    body: z.string(),
  })
  .transform((r) => ({ version: r.v, updated_at: r.written_at, is_deleted: r.deleted, content: r.body }))

/**
 * Every version a block has had, as one table expression: the captured history and the physical
 * rows merges have not collapsed yet (history installed after the data holds none of the older
 * rows; the physical rows lack what merges removed). A version in both reads twice: readers group
 * by version or count distinct versions. Filters on it are pushed into both sides.
 */
export function versionsSource(hasHistory: boolean): string {
  const wm = source(tableNames().workingMemory)
  if (!hasHistory) return wm
  return `(SELECT ${WM_COLUMNS} FROM ${tableNames().history} UNION ALL SELECT ${WM_COLUMNS} FROM ${wm})`
}

/** The block's latest version and, when asked, one earlier version (history and physical rows). */
async function blockVersions(ref: BlockRef, table: string, toVersion: string | null, signal?: AbortSignal) {
  const wanted =
    toVersion === null
      ? sql`version = (SELECT max(version) FROM ${trusted(table)} WHERE ${blockScope(ref)})`
      : sql`(version = ${param('to_version', 'UInt64', toVersion)} OR version = (SELECT max(version) FROM ${trusted(table)} WHERE ${blockScope(ref)}))`
  return selectRows(
    // Aliases differ from the columns: a WHERE on `version` must see the column, not its text.
    sql`SELECT toString(version) AS v, toString(any(updated_at)) AS written_at, any(is_deleted) AS deleted, any(content) AS body
     FROM ${trusted(table)} WHERE ${blockScope(ref)} AND ${wanted}
     GROUP BY version ORDER BY version DESC`,
    versionRow,
    { signal },
  )
}

const countsRow = z.object({
  first_write: z.string(),
  checkpoint_writes: z.coerce.number(),
  turns: z.coerce.number(),
  memory_writes: z.coerce.number(),
  searches: z.coerce.number(),
  blobs: z.coerce.number(),
})

export async function replayPreview(
  ref: BlockRef,
  toVersion: string | null,
  signal?: AbortSignal,
): Promise<ReplayPreview> {
  const t = tableNames()
  const tables = await existingTables(signal)
  const notes: string[] = []
  const history = tables.has(t.history)
  const versionsTable = versionsSource(history)
  if (!history)
    notes.push('No history capture: versions that merges removed are not counted, and an older version may be gone.')
  const [rows, run] = await Promise.all([
    blockVersions(ref, versionsTable, toVersion, signal),
    runLatestRow(ref, signal),
  ])
  const current = rows[0]
  if (!current) throw notFound(`no block ${ref.blockKey} under this user and session in this run`)
  const target = toVersion === null ? null : (rows.find((r) => r.version === toVersion) ?? null)
  if (toVersion !== null && !target) throw notFound(`toVersion ${toVersion} is not a version of this block`)
  if (target?.is_deleted) notes.push(`v${target.version} is a tombstone: going back to it is a clear.`)

  // Strictly after `since`; a clear counts from the run's first write, which the same statement finds.
  const count = (table: string, time: string, scope: Sql, since: Sql) =>
    tables.has(table)
      ? sql`(SELECT count() FROM ${trusted(source(table))} WHERE ${scope} AND ${trusted(time)} > ${since})`
      : sql`0`
  const firstWrite = sql`(SELECT min(updated_at) FROM ${trusted(versionsTable)} WHERE ${runScope(ref)})`
  const since = target ? param('since', CH_TIME_TYPE, toChTime(target.updated_at)) : firstWrite
  const [c] = await selectRows(
    sql`SELECT toString(${firstWrite}) AS first_write,
       (SELECT count() FROM (SELECT version FROM ${trusted(versionsTable)} WHERE ${blockScope(ref)} AND updated_at > ${since} GROUP BY version)) AS checkpoint_writes,
       ${count(t.turns, 'created_at', runScope(ref), since)} AS turns,
       ${count(t.memory, 'updated_at', runScope(ref), since)} AS memory_writes,
       ${count(t.searchTrace, 'event_time', runScope(ref), since)} AS searches,
       ${count(t.contextBlobs, 'created_at', runScope(ref), since)} AS blobs`,
    countsRow,
    { signal },
  )
  for (const [table, what] of [
    [t.turns, 'conversation turns'],
    [t.memory, 'memory writes'],
    [t.searchTrace, 'searches (the search trace log is off or missing)'],
    [t.contextBlobs, 'blobs'],
  ] as const) {
    if (!tables.has(table)) notes.push(`Not counted: ${what}.`)
  }
  const running = run?.status === 'running'
  if (running)
    notes.push('The run is still running: its agent may write again before, or right after, this write lands.')
  if (current.is_deleted)
    notes.push(
      `The block is cleared now (v${current.version} is a tombstone): the agent starts from nothing if it resumes.`,
    )
  const units = unitsToRedo(
    current.is_deleted ? '' : current.content,
    target ? (target.is_deleted ? '' : target.content) : null,
  )
  return {
    toVersion,
    target: target ? { version: target.version, updatedAt: target.updated_at } : null,
    current: { version: current.version, updatedAt: current.updated_at },
    since: target ? target.updated_at : chTimeToIso(c.first_write),
    after: {
      checkpointWrites: c.checkpoint_writes,
      turns: c.turns,
      memoryWrites: c.memory_writes,
      searches: c.searches,
      blobs: c.blobs,
    },
    units,
    running,
    notes,
  }
}
