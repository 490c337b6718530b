import { count } from '@/lib/format'
import type { Issue, SkipIndexState, TableReport } from '@/lib/schema/types'
import { Tag } from '../ui/badge'
import { SchemaBadge, tableBadge } from './schema-badge'
import { SqlFix } from './sql-fix'
import styles from './schema.module.css'
import { CARD_EDGE_CLASS, SEVERITY_CLASS } from './schema-tone'

const keyText = (k: string[] | null) => (k ? `(${k.join(', ')})` : '—')

/** A matching value is shown once; a difference shows both sides. */
function Compare({
  label,
  expected,
  found,
  ok,
}: {
  label: string
  expected: string
  found: string | null
  ok: boolean
}) {
  if (ok) {
    return (
      <tr>
        <th scope="row">{label}</th>
        <td className="mono" colSpan={2}>
          {found}{' '}
          <span className="text-ok" aria-label="matches the contract">
            ✓
          </span>
        </td>
      </tr>
    )
  }
  return (
    <tr className={styles.diff}>
      <th scope="row">{label}</th>
      <td className="mono">
        <span className={styles.side}>expected</span>
        {expected}
      </td>
      <td className="mono">
        <span className={styles.side}>found</span>
        {found ?? '—'}{' '}
        <span className="text-bad" aria-label="differs from the contract">
          ✗
        </span>
      </td>
    </tr>
  )
}

function IndexLine({ ix }: { ix: SkipIndexState }) {
  const def = `${ix.name} ${ix.expr} TYPE ${ix.type} GRANULARITY ${ix.granularity}`
  const note =
    ix.state === 'ok'
      ? 'present'
      : ix.state === 'equivalent'
        ? `present as ${ix.found?.name} (GRANULARITY ${ix.found?.granularity})`
        : ix.state === 'differs'
          ? `differs: ${ix.found?.expr} TYPE ${ix.found?.type} GRANULARITY ${ix.found?.granularity}`
          : 'missing'
  const tone = ix.state === 'ok' || ix.state === 'equivalent' ? 'text-ok' : 'text-bad'
  return (
    <li>
      <code>INDEX {def}</code>{' '}
      <span className={tone}>{ix.state === 'ok' || ix.state === 'equivalent' ? '✓' : '✗'}</span>{' '}
      <span className="small muted">{note}</span>
    </li>
  )
}

/** Issues not already shown by the column and index lists, with their fixes. */
function IssueList({ issues }: { issues: Issue[] }) {
  if (issues.length === 0) return null
  return (
    <ul className={styles.issues}>
      {issues.map((i, n) => (
        <li key={n}>
          <span className={`${styles.sev} ${SEVERITY_CLASS[i.severity]}`}>{i.severity}</span> {i.message}
          {i.fix?.length ? <SqlFix statements={i.fix} /> : null}
        </li>
      ))}
    </ul>
  )
}

/** Contract names of the Loom tables, by report key (for the mapping hint). */
const CONTRACT_TABLES: Record<string, string> = {
  workingMemory: 'working_memory',
  runs: 'runs',
  conversations: 'conversations',
  turns: 'conversation_turns',
  memory: 'memory',
  contextBlobs: 'context_blobs',
  searchTrace: 'search_trace_log',
}

function MappingNote({ t }: { t: TableReport }) {
  if (!t.mapping) return null
  return (
    <p className={`small ${styles.mapping}`} data-testid="table-mapping">
      <Tag>mapped</Tag> the contract&apos;s <code>{t.mapping.contractTable}</code>
      {t.mapping.columns.length ? (
        <>
          ; columns{' '}
          {t.mapping.columns.map((c, i) => (
            <span key={c.contract}>
              {i ? ', ' : ''}
              <code>{c.contract}</code> → <code>{c.physical}</code>
            </span>
          ))}
        </>
      ) : null}
    </p>
  )
}

function Columns({ t }: { t: TableReport }) {
  const c = t.columns
  const contractTable = CONTRACT_TABLES[t.key]
  if (!c) return null
  const clean = c.missing.length === 0 && c.typeDiffers.length === 0
  return (
    <div>
      <p className={`small ${styles.explain}`}>
        <strong>Columns:</strong>{' '}
        {clean
          ? `all ${c.expected} present with the contract's types`
          : `${c.expected - c.missing.length} of ${c.expected} present${c.typeDiffers.length ? `, ${c.typeDiffers.length} with another type` : ''}`}
        {c.extra.length ? ` · ${c.extra.length} extra (ignored): ${c.extra.map((e) => e.name).join(', ')}` : ''}
      </p>
      {c.missing.length ? (
        <ul className={styles.collist}>
          {c.missing.map((m) => (
            <li key={m.name}>
              <Tag tone="bad">missing</Tag> <code>{m.name}</code> <span className="muted mono">{m.type}</span>
              {m.renamedTo ? (
                <span className="small">
                  {' '}
                  · maybe renamed to <code>{m.renamedTo}</code>
                  {contractTable ? (
                    <>
                      {' '}
                      — if so, map it:{' '}
                      <code>{JSON.stringify({ [contractTable]: { columns: { [m.name]: m.renamedTo } } })}</code> in
                      LOOM_RUNS_SCHEMA_MAP
                    </>
                  ) : null}
                </span>
              ) : null}
            </li>
          ))}
        </ul>
      ) : null}
      {c.typeDiffers.length ? (
        <ul className={styles.collist}>
          {c.typeDiffers.map((d) => (
            <li key={d.name}>
              <Tag tone={d.compatible ? 'neutral' : 'warning'}>{d.compatible ? 'compatible' : 'type differs'}</Tag>{' '}
              <code>{d.name}</code>{' '}
              <span className="mono small">
                {d.found} <span className="muted">(contract: {d.expected})</span>
              </span>
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  )
}

export function TableCard({ t }: { t: TableReport }) {
  const badge = tableBadge(t)
  const headingId = `sd-${t.key.replace(/\W/g, '-')}`
  // Column and index issues are shown in their own lists; the rest (key, engine, views) as issues.
  const shownElsewhere = new Set(['missing_column', 'type_differs', 'extra_column', 'missing_index', 'index_differs'])
  const fixes = t.issues.filter(
    (i) => (i.code === 'missing_column' || i.code === 'missing_index' || i.code === 'index_differs') && i.fix?.length,
  )
  const otherIssues = t.present
    ? t.issues.filter((i) => !shownElsewhere.has(i.code))
    : t.issues.filter((i) => i.code !== 'missing_table')
  return (
    <section
      className={`panel ${styles.card} ${CARD_EDGE_CLASS[badge.tone]}`}
      aria-labelledby={headingId}
      data-table={t.fullName}
      data-status={t.status}
    >
      <header className={styles.cardHead}>
        <h3 id={headingId} className="mono">
          {t.fullName}
        </h3>
        <SchemaBadge {...badge} />
        <span className="spacer" />
        {t.parts ? (
          <span className="small muted" title="Active parts · rows (system.parts)">
            {count(t.parts.active)} part{t.parts.active === 1 ? '' : 's'} · {count(t.parts.rows)} row
            {t.parts.rows === 1 ? '' : 's'}
          </span>
        ) : t.kind === 'materializedView' ? (
          <span className="small muted">materialized view</span>
        ) : null}
      </header>
      <p className={`small muted ${styles.purpose}`}>{t.purpose}</p>
      <MappingNote t={t} />
      {!t.present ? (
        <p className={styles.missing}>
          <strong>{badge.label === 'Missing' ? 'Missing.' : 'Not there.'}</strong> {t.disables}.
        </p>
      ) : (
        <>
          <table className={styles.compare}>
            <tbody>
              <Compare label="Engine" expected={t.engine.expected} found={t.engine.found} ok={t.engine.ok} />
              {t.sortingKey ? (
                <Compare
                  label="Sorting key"
                  expected={keyText(t.sortingKey.expected)}
                  found={keyText(t.sortingKey.found)}
                  ok={t.sortingKey.ok}
                />
              ) : null}
              {t.view ? (
                <>
                  <Compare
                    label="Writes to"
                    expected={t.view.expectedTarget}
                    found={t.view.foundTarget}
                    ok={t.view.foundTarget === t.view.expectedTarget}
                  />
                  <Compare
                    label="Fed by"
                    expected={t.view.source}
                    found={t.view.sourceLinked ? t.view.source : 'not attached'}
                    ok={t.view.sourceLinked}
                  />
                </>
              ) : null}
            </tbody>
          </table>
          <Columns t={t} />
          {t.skipIndexes.length ? (
            <div>
              <p className={`small ${styles.caption}`}>
                <strong>Skip indexes:</strong>
              </p>
              <ul className={styles.collist}>
                {t.skipIndexes.map((ix) => (
                  <IndexLine key={ix.name} ix={ix} />
                ))}
              </ul>
            </div>
          ) : null}
        </>
      )}
      <IssueList issues={otherIssues} />
      {fixes.length ? (
        <SqlFix
          statements={fixes.flatMap((i) => i.fix ?? [])}
          caption={
            fixes.some((i) => i.code === 'missing_column')
              ? 'To fix, an admin can run (a column Loom writes under another name stays empty once added):'
              : 'To fix, an admin can run (MATERIALIZE builds the index for rows already there):'
          }
        />
      ) : null}
    </section>
  )
}
