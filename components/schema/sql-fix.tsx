import { useId } from 'react'
import { CopyButton } from './copy-button'
import styles from './sql-fix.module.css'

/** Statements an admin could run, shown as SQL with one Copy for all of them. */
export function SqlFix({ statements, caption }: { statements: string[]; caption?: string }) {
  const id = useId()
  const text = statements.map((s) => `${s};`).join('\n')
  return (
    <div className={styles.fix}>
      <div className={styles.fixHead}>
        <span className="small muted">{caption ?? 'To fix, an admin can run:'}</span>
        <CopyButton text={text} describedBy={id} />
      </div>
      <pre id={id} className={styles.sql} aria-label="SQL statements">
        {text}
      </pre>
    </div>
  )
}
