'use client'

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import type { SchemaReport, TableGroup, TableReport } from '@/lib/schema/types'
import { ErrorBanner } from '../ui/error-banner'
import { TimeAgo } from '../ui/time-ago'
import { fetchFreshSchemaReport, schemaReportQueryOptions } from '@/lib/api-client/schema'
import { HistoryCard, MappingCard, RunIndexCard, WorkingMemoryCard } from './state-cards'
import { SummaryBanner } from './summary-banner'
import { TableCard } from './table-card'
import { Skeleton } from '../ui/skeleton'
import styles from './schema.module.css'
import { SEVERITY_CLASS } from './schema-tone'
import { Button } from '../ui/button'

const GROUPS: { group: TableGroup; title: string; note: string }[] = [
  {
    group: 'loom',
    title: 'Loom tables',
    note: 'Written by Loom; the console reads them and writes new versions to working memory.',
  },
  { group: 'telemetry', title: 'Telemetry', note: 'Written by Loom when its search trace log is on.' },
  { group: 'dashboard', title: 'Console tables', note: "The console's own audit log." },
  { group: 'history', title: 'History tables', note: 'Opt-in: a complete copy of every working-memory version.' },
  { group: 'runIndex', title: 'Run index', note: 'Opt-in: keeps the runs list fast at millions of runs.' },
]

function Disabled({ report }: { report: SchemaReport }) {
  if (report.disabled.length === 0) return null
  return (
    <section className={`panel ${styles.disabled}`} aria-labelledby="sd-disabled-title">
      <h2 id="sd-disabled-title">Turned off in the console</h2>
      <ul>
        {report.disabled.map((d) => (
          <li key={d.table}>
            <span className={`${styles.sev} ${SEVERITY_CLASS[d.severity]}`}>
              {d.severity === 'info' ? 'off' : d.severity}
            </span>{' '}
            {d.feature} <span className="mono small muted">({d.table} missing)</span>
          </li>
        ))}
      </ul>
    </section>
  )
}

function Group({
  title,
  note,
  tables,
  collapsed,
}: {
  title: string
  note: string
  tables: TableReport[]
  collapsed: boolean
}) {
  const cards = (
    <div className={styles.grid}>
      {tables.map((t) => (
        <TableCard key={t.key} t={t} />
      ))}
    </div>
  )
  const bad = tables.filter((t) => t.status === 'problem' || t.status === 'warning').length
  const head = (
    <>
      <span className={styles.groupTitle}>{title}</span>
      <span className="small muted">
        {' '}
        · {tables.filter((t) => t.present).length} of {tables.length} present
        {bad ? ` · ${bad} need${bad === 1 ? 's' : ''} attention` : ''} · {note}
      </span>
    </>
  )
  if (collapsed) {
    return (
      <details className={styles.group}>
        <summary>{head}</summary>
        {cards}
      </details>
    )
  }
  return (
    <section className={styles.group} aria-label={title}>
      <h2>{head}</h2>
      {cards}
    </section>
  )
}

export function SchemaView() {
  const query = useQuery(schemaReportQueryOptions())
  const queryClient = useQueryClient()
  // The report is cached on the server; "Check again" asks it to read ClickHouse anew.
  const recheck = useMutation({
    mutationFn: fetchFreshSchemaReport,
    onSuccess: (fresh) => queryClient.setQueryData(schemaReportQueryOptions().queryKey, fresh),
  })
  const report = query.data
  const busy = query.isFetching || recheck.isPending
  return (
    <div className={`stack ${styles.page}`}>
      <div className="row">
        <div>
          <h1>Schema</h1>
          <p className={`muted small ${styles.explain}`}>
            What the console found in ClickHouse, checked against Loom&apos;s data contract. Nothing here is changed for
            you: the fixes are statements to run yourself.
          </p>
        </div>
        <span className="spacer" />
        {report ? (
          <span className="small muted">
            Checked <TimeAgo iso={report.checkedAt} />
          </span>
        ) : null}
        <Button onClick={() => recheck.mutate()} disabled={busy}>
          {busy ? 'Checking…' : 'Check again'}
        </Button>
      </div>
      {query.isError ? <ErrorBanner error={query.error} onRetry={() => query.refetch()} stale={!!report} /> : null}
      {recheck.isError ? <ErrorBanner error={recheck.error} onRetry={() => recheck.mutate()} stale={!!report} /> : null}
      {query.isPending ? (
        <div className="stack" aria-busy="true" aria-label="Loading the schema report">
          <div className="panel">
            <Skeleton height={36} />
          </div>
          <div className={styles.grid}>
            {Array.from({ length: 4 }, (_, i) => (
              <div key={i} className="panel stack">
                <Skeleton />
                <Skeleton />
                <Skeleton />
              </div>
            ))}
          </div>
        </div>
      ) : null}
      {report ? (
        <>
          <SummaryBanner report={report} />
          <Disabled report={report} />
          <div className={styles.states}>
            <WorkingMemoryCard wm={report.workingMemory} />
            <HistoryCard h={report.history} />
            <RunIndexCard ix={report.runIndex} />
            <MappingCard mapping={report.mapping} />
          </div>
          {GROUPS.map((g) => {
            const tables = report.tables.filter((t) => t.group === g.group)
            if (tables.length === 0) return null
            // The run index is plumbing (a dozen objects): folded unless something there needs a look.
            const collapsed = g.group === 'runIndex' && tables.every((t) => t.status === 'ok' || t.status === 'info')
            return <Group key={g.group} title={g.title} note={g.note} tables={tables} collapsed={collapsed} />
          })}
        </>
      ) : null}
    </div>
  )
}
