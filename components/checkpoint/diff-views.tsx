'use client'

import { useState } from 'react'
import type { JsonDiff, SetDiff, TextDiff, TextPart, WordSegment } from '@/lib/diff'
import { count } from '@/lib/format'
import { JsonInline } from './json-highlight'
import { Tag } from '../ui/badge'
import ck from './diff.module.css'
import { buttonClass } from '../ui/button'

const CHIP_LIMIT = 120

function IdChips({ ids, kind }: { ids: string[]; kind: 'added' | 'removed' }) {
  const [all, setAll] = useState(false)
  if (ids.length === 0) return <p className="small muted">none</p>
  const shown = all ? ids : ids.slice(0, CHIP_LIMIT)
  return (
    <>
      <ul
        className={`${ck.chips} ${kind === 'added' ? ck.chipsAdded : ck.chipsRemoved}`}
        aria-label={`${kind} ids`}
        tabIndex={0}
      >
        {shown.map((id) => (
          <li key={id} className="mono">
            {kind === 'added' ? '+' : '−'} {id}
          </li>
        ))}
      </ul>
      {ids.length > shown.length ? (
        <button type="button" className={buttonClass('ghost', 'normal', 'small')} onClick={() => setAll(true)}>
          Show all {count(ids.length)}
        </button>
      ) : null}
    </>
  )
}

export function SetDiffView({ diff }: { diff: SetDiff }) {
  return (
    <div className="stack" aria-label="Set diff">
      <p className={ck.diffCounts}>
        <span className={diff.added.length ? ck.plus : 'muted'}>+{count(diff.added.length)} added</span>
        <span className={diff.removed.length ? ck.minus : 'muted'}>−{count(diff.removed.length)} removed</span>
        <span className="muted">
          {count(diff.kept)} kept · {count(diff.beforeCount)} → {count(diff.afterCount)} ids
        </span>
      </p>
      <div className={ck.diffCols}>
        <section aria-label="Added ids">
          <h4>Added</h4>
          <IdChips ids={diff.added} kind="added" />
        </section>
        <section aria-label="Removed ids">
          <h4>Removed</h4>
          <IdChips ids={diff.removed} kind="removed" />
        </section>
      </div>
    </div>
  )
}

export function JsonDiffView({ diff }: { diff: JsonDiff }) {
  if (diff.changes.length === 0)
    return <p className="muted">{diff.identical ? 'Identical.' : 'Same JSON value; only the formatting differs.'}</p>
  return (
    <div className="table-wrap">
      <table className={`data ${ck.jsonDiff}`} aria-label="JSON changes">
        <colgroup className={ck.jsonDiffColumns}>
          <col />
          <col />
          <col />
        </colgroup>
        <thead>
          <tr>
            <th scope="col">path</th>
            <th scope="col">change</th>
            <th scope="col">before → after</th>
          </tr>
        </thead>
        <tbody>
          {diff.changes.map((c, i) => (
            <tr key={`${i}:${c.type}:${c.path}`}>
              <td className="mono">{c.path}</td>
              <td>
                <Tag className={c.type === 'added' ? ck.tagAdd : c.type === 'removed' ? ck.tagDel : undefined}>
                  {c.type}
                </Tag>
              </td>
              <td>
                {c.type === 'moved' ? (
                  <span>
                    <JsonInline value={c.after} /> <span className="small muted">from</span>{' '}
                    <span className="mono">{c.from}</span>
                  </span>
                ) : c.type === 'added' ? (
                  <JsonInline value={c.after} />
                ) : c.type === 'removed' ? (
                  <del>
                    <JsonInline value={c.before} />
                  </del>
                ) : (
                  <span>
                    <del>
                      <JsonInline value={c.before} />
                    </del>
                    <span aria-hidden> → </span>
                    <span className="sr-only"> becomes </span>
                    <ins>
                      <JsonInline value={c.after} />
                    </ins>
                  </span>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  )
}

const CONTEXT = 3

type Line =
  { type: TextPart['type']; text: string; words?: WordSegment[] } | { type: 'fold'; part: number; hidden: number }

function textLines(parts: TextPart[], open: ReadonlySet<number>): Line[] {
  const out: Line[] = []
  parts.forEach((p, pi) => {
    const long = p.type === 'same' && p.lines.length > CONTEXT * 2 + 2 && !open.has(pi)
    if (!long) {
      p.lines.forEach((text, li) => out.push({ type: p.type, text, words: p.words?.[li] }))
      return
    }
    const head = pi === 0 ? [] : p.lines.slice(0, CONTEXT)
    const tail = pi === parts.length - 1 ? [] : p.lines.slice(-CONTEXT)
    for (const text of head) out.push({ type: 'same', text })
    out.push({ type: 'fold', part: pi, hidden: p.lines.length - head.length - tail.length })
    for (const text of tail) out.push({ type: 'same', text })
  })
  return out
}

const GUTTER = { added: '+', removed: '−', same: ' ' } as const
const LINE_CLASS = { added: ck.lineAdded, removed: ck.lineRemoved, same: '' } as const

/**
 * A changed line with the words that differ marked (ins on the added side, del on the removed side).
 * Only for lines that kept some words: a line new or gone as a whole is marked by its row alone.
 */
function LineWords({ type, words }: { type: 'added' | 'removed'; words: WordSegment[] }) {
  const Mark = type === 'added' ? 'ins' : 'del'
  return (
    <>
      {words.map((w, i) =>
        w.changed ? (
          <Mark key={i} className={ck.word}>
            {w.text}
          </Mark>
        ) : (
          <span key={i}>{w.text}</span>
        ),
      )}
    </>
  )
}

export function TextDiffView({ diff }: { diff: TextDiff }) {
  const [open, setOpen] = useState<ReadonlySet<number>>(() => new Set())
  if (diff.identical) return <p className="muted">Identical.</p>
  const lines = textLines(diff.parts, open)
  return (
    <div className="stack">
      <p className={ck.diffCounts}>
        <span className={diff.addedLines ? ck.plus : 'muted'}>+{count(diff.addedLines)} lines</span>
        <span className={diff.removedLines ? ck.minus : 'muted'}>−{count(diff.removedLines)} lines</span>
      </p>
      {diff.overBudget ? (
        <p className="muted small" role="note" data-diff-over-budget>
          These versions differ too much to compare line by line within the diff&apos;s work budget: both are shown
          whole, the older removed and the newer added.
        </p>
      ) : null}
      <div className={ck.textDiff} role="table" aria-label="Line diff">
        {lines.map((l, i) =>
          l.type === 'fold' ? (
            <div key={`f${l.part}`} role="row" className={`${ck.line} ${ck.lineFold}`}>
              <span role="cell" className={ck.gutter} />
              <span role="cell">
                <button
                  type="button"
                  className={buttonClass('ghost', 'normal', 'small')}
                  onClick={() => setOpen(new Set([...open, l.part]))}
                >
                  ⋯ show {count(l.hidden)} unchanged lines
                </button>
              </span>
            </div>
          ) : (
            <div key={i} role="row" className={`${ck.line} ${LINE_CLASS[l.type]}`} data-change={l.type}>
              <span role="cell" className={ck.gutter} aria-label={l.type === 'same' ? 'unchanged' : l.type}>
                {GUTTER[l.type]}
              </span>
              <span role="cell" className={ck.lineText}>
                {l.type !== 'same' && l.words?.some((w) => !w.changed && w.text.trim() !== '') ? (
                  <LineWords type={l.type} words={l.words} />
                ) : (
                  l.text || '\u00a0'
                )}
              </span>
            </div>
          ),
        )}
      </div>
    </div>
  )
}
