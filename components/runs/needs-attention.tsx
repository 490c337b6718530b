'use client'

import { useQueries } from '@tanstack/react-query'
import Link from 'next/link'
import { useId } from 'react'
import { absoluteTime, count } from '@/lib/format'
import { links } from '@/lib/links'
import type { RunsFilters } from '@/lib/runs-search'
import { FLAG_TEXT, type RunFlag } from '@/lib/triage/flags'
import { cohortText, groupCohorts } from '@/lib/cohorts/group'
import { runsListQueryOptions } from '@/lib/api-client/runs'
import styles from './triage.module.css'
import { DisclosureButton } from '../ui/disclosure-button'
import { storedSetting } from '../ui/stored-setting'

/** What an operator should look at first, in that order. */
export const ATTENTION_FLAGS: { flag: RunFlag; title: string }[] = [
  { flag: 'stalled', title: 'Stalled runs' },
  { flag: 'crash_loop', title: 'Crash loops' },
  { flag: 'missing_blob', title: 'Missing blobs' },
  { flag: 'near_miss', title: 'Near misses' },
  { flag: 'tie', title: 'Version ties' },
  { flag: 'near_limit', title: 'Checkpoints near their limit' },
]

/** Counted from one page of the flagged list: exact up to this many, "N+" past it. */
const COUNT_CAP = 100

/** Cohorts listed under the counts, largest first. */
const COHORTS_SHOWN = 5

/** Open unless this browser's operator closed it (then its counts are not read). */
const panelState = storedSetting('loom-runs:needs-attention', 'open')

/**
 * "Needs attention": how many runs (under the page's other filters) carry each flag an operator
 * must act on, each a link to that list. Open with its counts by default; closing it is
 * remembered in this browser, and a closed panel reads nothing.
 */
export function NeedsAttention({ filters, ready = true }: { filters: RunsFilters; ready?: boolean }) {
  const open = panelState.useValue('open') !== 'closed'
  const setOpen = (next: boolean) => panelState.write(next ? 'open' : 'closed')
  const bodyId = useId()
  const base: RunsFilters = { ...filters, flag: undefined }
  const queries = useQueries({
    queries: ATTENTION_FLAGS.map(({ flag }) => ({
      ...runsListQueryOptions({ ...base, flag: [flag], limit: String(COUNT_CAP) }),
      // `ready`: the runs list has its rows; the counts wait for it, so a typed filter narrows the table
      // first (the engine answers one statement at a time) and the counts follow.
      enabled: open && ready,
      staleTime: 30_000,
    })),
  })
  // The same runs, grouped by what they share (GET /api/runs/cohorts groups the same pages).
  const loaded = queries.every((q) => q.data)
  const cohorts = loaded
    ? groupCohorts(
        queries.flatMap((q) => q.data?.runs ?? []),
        base,
      ).slice(0, COHORTS_SHOWN)
    : []
  return (
    <section className={`panel ${styles.attention}`} aria-labelledby={`${bodyId}-title`}>
      <div className={styles.attentionHead}>
        <h2 id={`${bodyId}-title`}>
          <DisclosureButton open={open} controls={bodyId} onToggle={() => setOpen(!open)}>
            Needs attention
          </DisclosureButton>
        </h2>
        <span className="small muted">
          stalled runs, crash loops, missing blobs, near misses, ties, checkpoints near their limit
        </span>
      </div>
      {open ? (
        <ul id={bodyId} className={styles.attentionList}>
          {ATTENTION_FLAGS.map(({ flag, title }, i) => {
            const q = queries[i]
            const n = q.data?.runs.length
            const more = !!q.data?.nextCursor
            // A page that stopped looking early counts only the runs it checked.
            const searchedTo = q.data?.searchedTo
            const label =
              n === undefined ? (q.isError ? 'could not count' : 'counting…') : `${count(n)}${more ? '+' : ''}`
            return (
              <li key={flag}>
                <Link
                  href={links.runsList({ ...base, flag: [flag] })}
                  prefetch={false}
                  className={styles.attentionItem}
                  data-flag={flag}
                  title={
                    searchedTo
                      ? `${FLAG_TEXT[flag].meaning}. Counted among runs started since ${absoluteTime(searchedTo)}.`
                      : FLAG_TEXT[flag].meaning
                  }
                >
                  <span className={styles.attentionCount} data-zero={n === 0} aria-busy={n === undefined && !q.isError}>
                    {label}
                  </span>
                  <span className={styles.attentionLabel}>{title}</span>
                </Link>
              </li>
            )
          })}
        </ul>
      ) : null}
      {open && cohorts.length ? (
        <div className={styles.cohorts}>
          <h3 className="small muted">Troubled runs by what they share</h3>
          <ul aria-label="Cohorts of troubled runs">
            {cohorts.map((c) => (
              <li key={c.key}>
                <Link href={c.href} prefetch={false} data-cohort={c.key}>
                  {cohortText(c)}
                </Link>{' '}
                <span className="small muted">
                  {c.runs === 1 ? 'started' : 'since'} {absoluteTime(c.firstAt)}
                  {c.org || c.namespace ? ` · ${c.org}/${c.namespace}` : ''}
                </span>
              </li>
            ))}
          </ul>
        </div>
      ) : null}
    </section>
  )
}
