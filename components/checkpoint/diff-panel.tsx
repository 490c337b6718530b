'use client'

import { useMemo, type Ref } from 'react'
import { describeDiff, diffContents, type ContentDiff } from '@/lib/diff'
import { TimeAgo } from '../ui/time-ago'
import { Tag } from '../ui/badge'
import { JsonDiffView, SetDiffView, TextDiffView } from './diff-views'
import { VersionContent } from './version-content'
import type { VersionEntry } from './version-rows'
import ck from './diff.module.css'
import { buttonClass } from '../ui/button'
import { bindText } from '../ui/bind-text'

type Props = {
  entries: VersionEntry[]
  a: string | null
  b: string | null
  onChange: (a: string | null, b: string | null) => void
  /** The panel itself, so an action elsewhere can bring it into view and focus it. */
  ref?: Ref<HTMLElement>
}

const KIND_LABEL: Record<ContentDiff['kind'], string> = {
  set: 'set diff of ids',
  json: 'structural JSON diff',
  text: 'line diff',
}

function entryLabel(e: VersionEntry): string {
  return `v${e.id}${e.block.isDeleted ? ' (tombstone)' : ''}`
}

function VersionSelect({
  label,
  value,
  entries,
  onChange,
}: {
  label: string
  value: string | null
  entries: VersionEntry[]
  onChange: (v: string) => void
}) {
  return (
    <label className="field">
      {label}
      <select {...bindText(value ?? '', onChange)}>
        {value === null ? <option value="">—</option> : null}
        {entries.map((e) => (
          <option key={e.id} value={e.id}>
            {entryLabel(e)} · {e.block.sourceTrace || e.block.actor}
          </option>
        ))}
      </select>
    </label>
  )
}

function Side({ entry, side }: { entry: VersionEntry; side: 'A' | 'B' }) {
  return (
    <section className={ck.side} aria-label={`Content of version ${side}, v${entry.id}`}>
      <h4>
        {side} · v{entry.id}{' '}
        <span className="small muted">
          {entry.block.actor} · <span className="mono">{entry.block.sourceTrace || '—'}</span> ·{' '}
          <TimeAgo iso={entry.block.updatedAt} />
        </span>
      </h4>
      <VersionContent
        content={entry.block.content}
        isDeleted={entry.block.isDeleted}
        label={`Content of v${entry.id}`}
      />
    </section>
  )
}

/** Two versions side by side: what changed from A to B, by the kind of content, then both contents. */
export function DiffPanel({ entries, a, b, onChange, ref }: Props) {
  const ea = entries.find((e) => e.id === a) ?? null
  const eb = entries.find((e) => e.id === b) ?? null
  const diff = useMemo(
    () =>
      ea && eb
        ? diffContents(ea.block.isDeleted ? '' : ea.block.content, eb.block.isDeleted ? '' : eb.block.content)
        : null,
    [ea, eb],
  )
  return (
    <section ref={ref} tabIndex={-1} className={`panel stack ${ck.scrollTarget}`} aria-labelledby="ck-diff-title">
      <div className="row">
        <h2 id="ck-diff-title" className="flush">
          Compare versions
        </h2>
        <span className="spacer" />
        <VersionSelect label="Version A (before)" value={a} entries={entries} onChange={(v) => onChange(v, b)} />
        <button
          type="button"
          className={buttonClass('default', 'normal', ck.swap)}
          onClick={() => onChange(b, a)}
          aria-label="Swap A and B"
          disabled={!a || !b}
        >
          ⇄
        </button>
        <VersionSelect label="Version B (after)" value={b} entries={entries} onChange={(v) => onChange(a, v)} />
      </div>
      {!ea || !eb || !diff ? (
        <p className="muted">
          {entries.length < 2
            ? 'Only one version: nothing to compare.'
            : 'Pick two versions (A and B) in the table or above.'}
        </p>
      ) : (
        <>
          <p className={ck.diffSummary} aria-live="polite">
            <strong>
              v{ea.id} → v{eb.id}
            </strong>
            : {describeDiff(diff)} <Tag>{KIND_LABEL[diff.kind]}</Tag>
            {ea.block.isDeleted || eb.block.isDeleted ? (
              <span className="small muted"> (a tombstone counts as empty)</span>
            ) : null}
          </p>
          <div key={`${ea.id}|${eb.id}`}>
            {diff.kind === 'set' ? (
              <SetDiffView diff={diff} />
            ) : diff.kind === 'json' ? (
              <JsonDiffView diff={diff} />
            ) : (
              <TextDiffView diff={diff} />
            )}
          </div>
          <div className={ck.sides}>
            <Side entry={ea} side="A" />
            <Side entry={eb} side="B" />
          </div>
        </>
      )}
    </section>
  )
}
