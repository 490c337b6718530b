import { FLAG_TEXT, type RunFlag } from '@/lib/triage/flags'
import styles from './triage.module.css'

/** How loud each flag is: `bad` needs an operator now, `warn` soon, `info` is worth knowing. */
const TONE: Record<RunFlag, 'bad' | 'warn' | 'info'> = {
  crash_loop: 'bad',
  stalled: 'bad',
  missing_blob: 'bad',
  near_miss: 'warn',
  near_limit: 'warn',
  tie: 'warn',
  resumed: 'info',
}

/**
 * A run's flags as small badges. Each takes focus (keyboard, or a tap on a phone) and then shows
 * what it means beside it, as it does on hover; screen readers read the meaning with the label.
 */
export function FlagBadges({ flags }: { flags: readonly RunFlag[] | undefined }) {
  if (!flags?.length) return null
  return (
    <ul className={styles.badges} aria-label="Flags">
      {flags.map((f) => (
        <li
          key={f}
          className={styles.badge}
          data-tone={TONE[f] ?? 'warn'}
          data-flag={f}
          data-meaning={FLAG_TEXT[f]?.meaning}
          tabIndex={0}
        >
          {FLAG_TEXT[f]?.label ?? f}
          <span className="sr-only">: {FLAG_TEXT[f]?.meaning}</span>
        </li>
      ))}
    </ul>
  )
}
