'use client'

import type { BlockDetail } from '@/lib/api/types'
import { count } from '@/lib/format'
import type { VersionEntry } from './version-rows'
import { VersionTable } from './version-table'
import ck from './versions.module.css'

type Props = {
  detail: BlockDetail
  entries: VersionEntry[]
  a: string | null
  b: string | null
  onCompare: (a: string | null, b: string | null) => void
}

function Counts({ detail, entries }: { detail: BlockDetail; entries: VersionEntry[] }) {
  const tombstones = entries.filter((e) => e.block.isDeleted).length
  const parts = new Set(detail.versions.map((v) => v.part)).size
  return (
    <p className={`small muted ${ck.counts}`} aria-live="polite">
      <strong className={ck.countMain}>
        {count(entries.length)} version{entries.length === 1 ? '' : 's'}
      </strong>
      {detail.historyInstalled ? ` · ${count(detail.history?.length ?? 0)} in history` : ''} ·{' '}
      {count(detail.versions.length)} physical row
      {detail.versions.length === 1 ? '' : 's'} in {count(parts)} part{parts === 1 ? '' : 's'}
      {tombstones ? ` · ${tombstones} tombstone${tombstones === 1 ? '' : 's'}` : ''}
    </p>
  )
}

/** Every version of the block, where it was found, and what each write changed. */
export function VersionsPanel({ detail, entries, a, b, onCompare }: Props) {
  return (
    <section className="panel stack" aria-labelledby="ck-versions-title">
      <div className="row">
        <h2 id="ck-versions-title" className="flush">
          Versions
        </h2>
        <Counts detail={detail} entries={entries} />
      </div>
      {detail.historyInstalled ? (
        <p className="banner banner-info small" role="note">
          Physical rows are read without FINAL: versions disappear from it when ClickHouse merges parts. The captured
          history keeps every version since it was installed.
        </p>
      ) : (
        <p className="banner banner-warn small" role="note">
          The history table is not installed, so this list holds only the physical rows ClickHouse has not merged yet
          (read without FINAL): versions disappear from it when parts merge. Run <code>npm run history:install</code> to
          keep every version from now on.
        </p>
      )}
      {entries.length === 0 ? (
        <p className="muted">No versions under this identity.</p>
      ) : (
        <VersionTable entries={entries} a={a} b={b} onCompare={onCompare} />
      )}
    </section>
  )
}
