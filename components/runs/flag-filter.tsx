'use client'

import { useId } from 'react'
import { FLAG_TEXT, RUN_FLAGS, type RunFlag } from '@/lib/triage/flags'
import styles from './triage.module.css'

/** Pick any number of flags: the list keeps the runs that carry every one of them. */
export function FlagFilter({ value, onChange }: { value: readonly RunFlag[]; onChange: (next: RunFlag[]) => void }) {
  const id = useId()
  const picked = new Set(value)
  const summary = value.length ? value.map((f) => FLAG_TEXT[f].label).join(', ') : 'Any'
  return (
    <div className={styles.flagFilter}>
      <span id={`${id}-label`}>Flags</span>
      <details
        onKeyDown={(e) => {
          if (e.key === 'Escape' && e.currentTarget.open) {
            e.currentTarget.open = false
            e.currentTarget.querySelector('summary')?.focus()
          }
        }}
      >
        <summary className={styles.flagSummary} aria-labelledby={`${id}-label ${id}-value`}>
          <span id={`${id}-value`}>{summary}</span>
          <span aria-hidden>▾</span>
        </summary>
        <fieldset className={styles.flagList}>
          <legend className="sr-only">Runs that carry every flag picked</legend>
          {RUN_FLAGS.map((f) => (
            <label key={f} className={styles.flagOption}>
              <input
                type="checkbox"
                name="flag"
                value={f}
                checked={picked.has(f)}
                onChange={(e) => onChange(RUN_FLAGS.filter((x) => (x === f ? e.target.checked : picked.has(x))))}
              />
              <span>{FLAG_TEXT[f].label}</span>
              <span className={styles.flagMeaning}>{FLAG_TEXT[f].meaning}</span>
            </label>
          ))}
        </fieldset>
      </details>
    </div>
  )
}
