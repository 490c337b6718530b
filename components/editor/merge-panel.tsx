'use client'

import { useEffect, useRef } from 'react'
import type { Block } from '@/lib/api/types'
import type { MergeConflict, MergeResult, Side } from '@/lib/merge/types'
import styles from './merge-panel.module.css'
import { Button } from '../ui/button'

type Props = {
  /** The version the operator started from. */
  fromVersion: string
  /** The version re-applied onto (the one Save expects). */
  onto: Block
  /** What each side changed since `fromVersion`, in words. */
  theirChange: string
  myChange: string
  result: MergeResult
  /** The operator edits the content by hand; the choices no longer apply. */
  byHand: boolean
  onChoose: (id: string, side: Side) => void
  onChooseAll: (side: Side) => void
  onEditByHand: () => void
  onBackToChoices: () => void
}

function Value({ text, absent }: { text: string | null; absent: string }) {
  return text === null ? (
    <p className={`${styles.value} ${styles.absent}`}>{absent}</p>
  ) : (
    <pre className={styles.value}>{text || ' '}</pre>
  )
}

function Conflict({
  c,
  onto,
  byHand,
  onChoose,
}: {
  c: MergeConflict
  onto: Block
  byHand: boolean
  onChoose: Props['onChoose']
}) {
  const cleared = c.id === 'content'
  return (
    <li>
      <fieldset className={`stack ${styles.conflict}`}>
        <legend>{c.label}</legend>
        <div className={styles.sides}>
          <div className={styles.side}>
            <span className={styles.sideHead}>Started from</span>
            <Value text={c.base} absent="(not there)" />
          </div>
          <div className={styles.side}>
            <span className={styles.sideHead}>
              Theirs, v{onto.version} by <span className="mono">{onto.actor}</span>
            </span>
            <Value text={c.theirs} absent={cleared ? '(cleared: a tombstone)' : '(removed)'} />
          </div>
          <div className={styles.side}>
            <span className={styles.sideHead}>Mine</span>
            <Value text={c.mine} absent={cleared ? '(emptied)' : '(removed)'} />
          </div>
        </div>
        <div className="row gap-8">
          {(['mine', 'theirs'] as const).map((side) => (
            <label key={side} className={styles.choice}>
              <input
                type="radio"
                name={`merge-${c.id}`}
                checked={c.resolution === side}
                disabled={byHand}
                onChange={() => onChoose(c.id, side)}
              />
              {side === 'mine' ? 'Keep mine' : 'Keep theirs'}
            </label>
          ))}
          <span className={`small ${c.resolution ? styles.resolved : styles.open}`}>
            {byHand ? 'resolved by hand' : c.resolution ? `keeping ${c.resolution}` : 'not resolved yet'}
          </span>
        </div>
      </fieldset>
    </li>
  )
}

/** What a re-apply merged by itself, and the conflicts the operator resolves before saving. */
export function MergePanel(props: Props) {
  const { fromVersion, onto, result, byHand } = props
  const n = result.conflicts.length
  const ref = useRef<HTMLElement>(null)
  // The Re-apply button is gone once clicked: keyboard focus continues here (the panel is keyed per re-apply).
  useEffect(() => ref.current?.focus(), [])
  const alreadyIn = n === 0 && result.content === (onto.isDeleted ? '' : onto.content)
  return (
    <section
      ref={ref}
      tabIndex={-1}
      className={`stack ${styles.panel} ${n ? styles.panelConflicts : ''}`}
      aria-label="Merge"
    >
      <p className={`small ${styles.summary}`}>
        <strong>
          Your edit of v{fromVersion}, merged onto v{onto.version}.
        </strong>{' '}
        v{onto.version} ({onto.actor}): {props.theirChange}. Yours: {props.myChange}.{' '}
        {alreadyIn
          ? `Your change is already in v${onto.version}: nothing left to save.`
          : n === 0
            ? `The changes do not overlap: both are in the content below, and the preview shows it against v${onto.version}.`
            : `${n === 1 ? '1 change overlaps' : `${n} changes overlap`}: choose which to keep for each, or edit the content by hand. Nothing is saved until then.`}
      </p>
      {n > 0 ? (
        <>
          <div className="row gap-8">
            <strong className="small" role="status">
              {byHand
                ? `Editing by hand: ${n} conflict${n === 1 ? '' : 's'} for reference`
                : result.unresolved
                  ? `${result.unresolved} of ${n} conflict${n === 1 ? '' : 's'} to resolve`
                  : `Conflicts resolved: ${n} of ${n}`}
            </strong>
            <span className="spacer" />
            {byHand ? (
              <Button size="small" onClick={props.onBackToChoices}>
                Back to the choices (drops hand edits)
              </Button>
            ) : (
              <>
                {n > 1 ? (
                  <>
                    <Button size="small" onClick={() => props.onChooseAll('mine')}>
                      Keep mine for all
                    </Button>
                    <Button size="small" onClick={() => props.onChooseAll('theirs')}>
                      Keep theirs for all
                    </Button>
                  </>
                ) : null}
                <Button size="small" onClick={props.onEditByHand}>
                  Edit by hand
                </Button>
              </>
            )}
          </div>
          <ol className={styles.conflicts} aria-label="Conflicts">
            {result.conflicts.map((c) => (
              <Conflict key={c.id} c={c} onto={onto} byHand={byHand} onChoose={props.onChoose} />
            ))}
          </ol>
        </>
      ) : null}
    </section>
  )
}
