'use client'

import { useQuery } from '@tanstack/react-query'
import { useId } from 'react'
import { healthQueryOptions } from '@/lib/api-client/health'
import { CopyButton } from '../schema/copy-button'
import { storedSetting } from '../ui/stored-setting'
import { setupNotice, SETUP_NOTICE_STORAGE_KEY } from './setup-notice-model'
import { bannerClass } from '../ui/banner'
import styles from './setup-notice.module.css'
import { Button } from '../ui/button'

const dismissal = storedSetting(SETUP_NOTICE_STORAGE_KEY, null)

/**
 * Says when the run index or the history capture is missing (a remote server nobody ran the init
 * command on), with the command that installs them. Dismissed per browser, until something else is missing.
 */
export function SetupNotice() {
  const health = useQuery(healthQueryOptions())
  // The server render has no storage: the notice appears only after hydration, never flashes away.
  const dismissed = dismissal.useValue('server')
  const notice = dismissed === 'server' ? null : setupNotice(health.data?.setup, dismissed)
  const titleId = useId()
  const commandId = useId()
  if (!notice) return null
  return (
    <section className={bannerClass('warning', styles.notice)} aria-labelledby={titleId}>
      <div className={styles.text}>
        <h2 id={titleId} className={styles.title}>
          This ClickHouse is missing part of the console&apos;s setup
        </h2>
        <ul>
          {notice.missing.map((m) => (
            <li key={m.part}>
              <strong>{m.name}</strong>, {m.why}
            </li>
          ))}
        </ul>
        <p>
          Run <code id={commandId}>{notice.command}</code> where the console is configured (same{' '}
          <code>CLICKHOUSE_URL</code>), with a user allowed to create tables; it prints what it creates and the grants
          it needs, and <code>-- --dry-run</code> changes nothing.
        </p>
      </div>
      <div className={styles.actions}>
        <CopyButton text={notice.command} label="Copy command" describedBy={commandId} />
        <Button onClick={() => dismissal.write(notice.key)}>Dismiss</Button>
      </div>
    </section>
  )
}
