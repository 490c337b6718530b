'use client'

import { useQuery } from '@tanstack/react-query'
import { replayQueryOptions } from '@/lib/api-client/run-detail'
import type { BlockTarget } from '@/lib/api-client/writes'
import type { ReplayPreview } from '@/lib/api/types'
import { unitsToRedo } from '@/lib/diff'
import { absoluteTime } from '@/lib/format'
import { Banner } from '@/components/ui/banner'
import { QueryState } from '@/components/ui/query-state'
import styles from './write-dialog.module.css'

function plural(n: number, one: string, many = `${one}s`) {
  return `${n.toLocaleString('en')} ${n === 1 ? one : many}`
}

/** "2 checkpoint versions, 3 conversation turns and 1 search": the kinds with rows, in a sentence. */
export function afterList(after: ReplayPreview['after']): string | null {
  const parts = [
    after.checkpointWrites ? plural(after.checkpointWrites, 'checkpoint version') : null,
    after.turns ? plural(after.turns, 'conversation turn') : null,
    after.memoryWrites ? plural(after.memoryWrites, 'memory write') : null,
    after.searches ? plural(after.searches, 'search', 'searches') : null,
    after.blobs ? plural(after.blobs, 'blob') : null,
  ].filter((p): p is string => p !== null)
  if (parts.length === 0) return null
  return parts.length === 1 ? parts[0] : `${parts.slice(0, -1).join(', ')} and ${parts[parts.length - 1]}`
}

/** What the agent will do again once this write lands, from its units. */
export function redoSentence(p: ReplayPreview): string {
  const to = p.target ? `v${p.target.version}` : 'an empty checkpoint'
  if (p.units.kind === 'none' || p.units.redo === null) {
    return `The checkpoint does not list its units of work, so how much the agent redoes from ${to} cannot be counted.`
  }
  if (p.units.redo === 0) return `The agent redoes no unit: v${p.current.version} holds none that ${to} lacks.`
  const more = p.units.redo > p.units.sample.length ? ', …' : ''
  return `The agent will redo ${plural(p.units.redo, 'unit')} (${p.units.sample.join(', ')}${more}).`
}

/** What the run wrote after the point it goes back to. */
export function afterSentence(p: ReplayPreview): string {
  const point = p.target
    ? `v${p.target.version} (${absoluteTime(p.target.updatedAt)})`
    : `its first write (${absoluteTime(p.since)})`
  const list = afterList(p.after)
  return list ? `After ${point} this run wrote ${list}.` : `This run wrote nothing after ${point}.`
}

/**
 * Foresight for a write dialog: what resuming from the version this write leaves makes the agent
 * do again, and what the run did after that version, before the operator confirms.
 */
export function ReplayNote({ target, toVersion }: { target: BlockTarget; toVersion: string | null }) {
  const query = useQuery(replayQueryOptions(target.run, target, toVersion))
  return (
    <section aria-label="What the agent will redo" aria-busy={query.isPending || undefined}>
      <QueryState query={query} pending={<p className="muted">Working out what the agent will redo…</p>}>
        {(p) => (
          <Banner tone={p.running ? 'warning' : 'info'} role="note">
            <p className={styles.lead}>
              {redoSentence(p)} {afterSentence(p)}
            </p>
            {p.notes.length ? (
              <ul className={styles.lead}>
                {p.notes.map((n) => (
                  <li key={n}>{n}</li>
                ))}
              </ul>
            ) : null}
          </Banner>
        )}
      </QueryState>
    </section>
  )
}

/** An edit's foresight, as the operator types: the units the agent redoes when it resumes from the draft. */
export function EditRedo({ current, draft, version }: { current: string; draft: string; version: string }) {
  const u = unitsToRedo(current, draft)
  if (u.kind === 'none' || u.redo === null) return null
  const text =
    u.redo === 0
      ? `Resuming from this edit, the agent redoes no unit: it keeps every unit v${version} holds.`
      : `Resuming from this edit, the agent will redo ${plural(u.redo, 'unit')} that v${version} holds (${u.sample.join(', ')}${u.redo > u.sample.length ? ', …' : ''}).`
  return (
    <p className="small" role="note" aria-label="What the agent will redo">
      {text}
    </p>
  )
}
