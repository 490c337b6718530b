'use client'

import { useQuery } from '@tanstack/react-query'
import Link from 'next/link'
import { eventsQueryOptions } from '@/lib/api-client/runs'
import { absoluteTime } from '@/lib/format'
import type { RunRef } from '@/lib/loom/identity'
import { Tag } from '../ui/badge'
import styles from './timeline.module.css'

const SHOWN = 8

/**
 * What operators and setup changed while the run ran (batches and undos that touched its agent,
 * writes into the agent's runs, setup runs), so "what changed the day it started failing" is here too.
 * The run's own operator writes are already events of the timeline.
 */
export function ChangesDuring({ runRef, from, to }: { runRef: RunRef; from: string; to: string }) {
  const q = useQuery(
    eventsQueryOptions({ from, to, org: runRef.org, namespace: runRef.namespace, agent: runRef.agent }),
  )
  const events = q.data?.events ?? []
  if (events.length === 0) return null
  return (
    <section className={`panel ${styles.changes}`} aria-labelledby="changes-during-title" data-testid="changes-during">
      <h2 id="changes-during-title" className="small">
        Changed by operators or setup while this run ran ({events.length}
        {events.length >= 200 ? '+' : ''})
      </h2>
      <ul>
        {events.slice(0, SHOWN).map((e) => (
          <li key={`${e.at}-${e.kind}-${e.batchId ?? e.runKey ?? ''}`} className="small">
            <span className="mono muted">{absoluteTime(e.at)}</span> <Tag>{e.kind}</Tag>{' '}
            {e.href ? (
              <Link prefetch={false} href={e.href}>
                {e.summary}
              </Link>
            ) : (
              e.summary
            )}
          </li>
        ))}
      </ul>
      {events.length > SHOWN ? (
        <p className="small muted flush">and {events.length - SHOWN} more, on the audit page.</p>
      ) : null}
    </section>
  )
}
