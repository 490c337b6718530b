'use client'

import { keepPreviousData, useQuery } from '@tanstack/react-query'
import Link from 'next/link'
import { parseAsString, parseAsStringLiteral, useQueryStates } from 'nuqs'
import { useState, type FormEvent } from 'react'
import type { ConsoleAuditPage } from '@/lib/api/types'
import { consoleAuditQueryOptions } from '@/lib/api-client/runs'
import { absoluteTime } from '@/lib/format'
import { links } from '@/lib/links'
import { Tag } from '../ui/badge'
import { Button, buttonClass } from '../ui/button'
import { ErrorBanner } from '../ui/error-banner'
import { SkeletonRows } from '../ui/skeleton'
import { TimeAgo } from '../ui/time-ago'
import { ValueOptions } from '../ui/value-options'
import { BatchTags } from './batch-tags'
import styles from './audit-view.module.css'

const ACTIONS = ['edit', 'clear', 'restore'] as const
const TEXT_FILTERS = [
  ['operator', 'Operator'],
  ['org', 'Org'],
  ['namespace', 'Namespace'],
  ['agent', 'Agent'],
  ['runId', 'Run id'],
  ['batchId', 'Batch id'],
] as const

/** What the entry did, in the words the run's Audit tab uses. */
function actionText(e: ConsoleAuditPage['entries'][number]): string {
  if (e.action === 'restore')
    return e.restoredVersion
      ? `restore v${e.restoredVersion} as v${e.afterVersion} (replacing v${e.beforeVersion})`
      : `restore as v${e.afterVersion} (replacing v${e.beforeVersion})`
  if (e.action === 'clear') return `clear v${e.beforeVersion} with tombstone v${e.afterVersion}`
  return `edit v${e.beforeVersion} → v${e.afterVersion}`
}

/** Every operator write and batch across the console, newest first, filtered from the URL. */
export function AuditView() {
  const [f, setF] = useQueryStates(
    {
      operator: parseAsString,
      org: parseAsString,
      namespace: parseAsString,
      agent: parseAsString,
      runId: parseAsString,
      batchId: parseAsString,
      action: parseAsStringLiteral(ACTIONS),
      from: parseAsString,
      to: parseAsString,
      cursor: parseAsString,
    },
    { history: 'push' },
  )
  // Older pages visited, so "Newer" can step back one page at a time.
  const [trail, setTrail] = useState<string[]>([])
  // The time inputs are read as UTC, as their labels say.
  const utc = (v: string | null) => (v && /T\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/.test(v) ? `${v}Z` : v)
  const params = new URLSearchParams(
    Object.entries({ ...f, from: utc(f.from), to: utc(f.to) }).filter((e): e is [string, string] => !!e[1]),
  )
  const query = useQuery({ ...consoleAuditQueryOptions(Object.fromEntries(params)), placeholderData: keepPreviousData })
  const entries = query.data?.entries ?? []
  const filtered = TEXT_FILTERS.some(([k]) => f[k]) || !!f.action || !!f.from || !!f.to

  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault()
    const data = new FormData(e.currentTarget)
    const text = (k: string) => String(data.get(k) ?? '').trim() || null
    const action = text('action')
    setTrail([])
    void setF({
      ...Object.fromEntries(TEXT_FILTERS.map(([k]) => [k, text(k)])),
      action: ACTIONS.find((a) => a === action) ?? null,
      from: text('from'),
      to: text('to'),
      cursor: null,
    })
  }

  return (
    <div className="stack">
      <div>
        <h1>Audit</h1>
        <p className="muted small flush">
          Every write made from this console (edits, clears, restores, batches), newest first. Each links to its run.
        </p>
      </div>
      <form
        className={`panel ${styles.filters}`}
        onSubmit={submit}
        role="search"
        aria-label="Filter the audit log"
        key={params.toString()}
      >
        {TEXT_FILTERS.map(([k, label]) => (
          <label key={k} className={styles.field}>
            <span>{label}</span>
            <input name={k} defaultValue={f[k] ?? ''} autoComplete="off" spellCheck={false} />
          </label>
        ))}
        <label className={styles.field}>
          <span>Action</span>
          <select name="action" defaultValue={f.action ?? ''}>
            <ValueOptions none="any" values={ACTIONS} />
          </select>
        </label>
        <label className={styles.field}>
          <span>From (UTC)</span>
          <input name="from" type="datetime-local" defaultValue={f.from ?? ''} />
        </label>
        <label className={styles.field}>
          <span>To (UTC)</span>
          <input name="to" type="datetime-local" defaultValue={f.to ?? ''} />
        </label>
        <div className={styles.actions}>
          <Button type="submit" variant="primary">
            Apply
          </Button>
          {filtered ? (
            <Button
              onClick={() => {
                setTrail([])
                void setF({
                  operator: null,
                  org: null,
                  namespace: null,
                  agent: null,
                  runId: null,
                  batchId: null,
                  action: null,
                  from: null,
                  to: null,
                  cursor: null,
                })
              }}
            >
              Clear filters
            </Button>
          ) : null}
        </div>
      </form>
      {query.isError ? <ErrorBanner error={query.error} onRetry={() => query.refetch()} stale={!!query.data} /> : null}
      {query.isPending ? (
        <SkeletonRows label="Loading the audit log" rows={6} />
      ) : query.data && !query.data.installed ? (
        <div className="panel empty">
          <p>
            <strong>No audit table yet.</strong>
          </p>
          <p className="small">
            It is created with the console&apos;s objects (npm run db:init) and gets a row for each write made from
            here.
          </p>
        </div>
      ) : entries.length === 0 && !query.isError ? (
        <div className="panel empty" data-testid="audit-empty">
          <p>
            <strong>
              {filtered ? 'No console write matches these filters.' : 'No write has been made from this console yet.'}
            </strong>
          </p>
        </div>
      ) : entries.length ? (
        <>
          <ol className={`panel ${styles.list}`} aria-label="Audit entries">
            {entries.map((e) => (
              <li
                key={`${e.at}|${e.org}|${e.namespace}|${e.agent}|${e.runId}|${e.blockKey}|${e.afterVersion}`}
                className={styles.entry}
                data-action={e.action}
              >
                <div className={styles.head}>
                  <Tag>{e.action}</Tag>
                  <span className="mono">{e.operator}</span>
                  <span>
                    {e.blockKey}: {actionText(e)}
                  </span>
                  <BatchTags batchId={e.batchId} undoes={e.undoes} />
                  <span className="spacer" />
                  <span className="small muted" title={absoluteTime(e.at)}>
                    <TimeAgo iso={e.at} />
                  </span>
                </div>
                <div className={`small ${styles.run}`}>
                  <Link href={e.href} prefetch={false} className="mono">
                    {e.org}/{e.namespace}/{e.agent}/{e.runId}
                  </Link>
                  {e.userId || e.sessionId ? (
                    <span className="muted mono">
                      {' '}
                      · user {e.userId || '∅'} · session {e.sessionId || '∅'}
                    </span>
                  ) : null}
                </div>
                <p className={`small ${styles.reason}`}>
                  <span className="muted">Reason: </span>
                  {e.reason}
                </p>
              </li>
            ))}
          </ol>
          <div className="pager">
            <span className="small muted">
              {entries.length} entr{entries.length === 1 ? 'y' : 'ies'} on this page
              {query.isFetching ? ' · updating…' : ''}
            </span>
            <Button
              disabled={!f.cursor}
              onClick={() => {
                const back = trail[trail.length - 2] ?? null
                setTrail(trail.slice(0, -1))
                void setF({ cursor: back })
              }}
            >
              ← Newer
            </Button>
            <Button
              disabled={!query.data?.nextCursor}
              onClick={() => {
                const next = query.data?.nextCursor ?? null
                if (!next) return
                setTrail([...trail, next])
                void setF({ cursor: next })
              }}
            >
              Older →
            </Button>
          </div>
        </>
      ) : null}
      <p className="small muted">
        <a className={buttonClass('ghost', 'small')} href={links.api.consoleAudit(params)}>
          This page as JSON
        </a>
      </p>
    </div>
  )
}
