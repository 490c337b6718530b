import { absoluteTime, count } from '@/lib/format'
import type { HistoryState, RunIndexState, SchemaReport, WorkingMemoryState } from '@/lib/schema/types'
import { TimeAgo } from '../ui/time-ago'
import { Stat } from '../ui/stat'
import { SchemaBadge } from './schema-badge'
import styles from './schema.module.css'

export function WorkingMemoryCard({ wm }: { wm: WorkingMemoryState | null }) {
  return (
    <section className={`panel ${styles.state}`} aria-labelledby="sd-wm-title">
      <header className={styles.cardHead}>
        <h2 id="sd-wm-title">Working memory parts</h2>
        <span className="spacer" />
        {wm ? <span className="mono small muted">{wm.table}</span> : null}
      </header>
      {!wm ? (
        <p className="muted small">The working-memory table is missing: nothing to count.</p>
      ) : (
        <>
          <dl className={styles.stats}>
            <Stat term="Active parts" data-testid="wm-parts">
              {count(wm.activeParts)}
            </Stat>
            <Stat term="Physical rows">{count(wm.physicalRows)}</Stat>
            <Stat term="Blocks">{count(wm.blocks)}</Stat>
            <Stat
              term="Unmerged versions"
              data-testid="wm-unmerged"
              className={wm.unmergedVersions ? 'text-warn' : undefined}
            >
              {count(wm.unmergedVersions)}
            </Stat>
          </dl>
          <p className={`small muted ${styles.explain}`}>
            {wm.note ? `Duplicates ${wm.note}. ` : null}
            Unmerged versions: the Checkpoint tab can still show them; they disappear when ClickHouse merges parts.
            Reads for resume use <code>FINAL</code> (the newest version per block), so they never see duplicates.
          </p>
        </>
      )}
    </section>
  )
}

export function HistoryCard({ h }: { h: HistoryState }) {
  const badge = h.capturing
    ? { label: 'Capturing', tone: 'ok' as const }
    : h.installed
      ? { label: 'Not capturing', tone: 'warning' as const }
      : h.tablePresent || h.viewPresent
        ? { label: 'Half installed', tone: 'warning' as const }
        : { label: 'Not installed', tone: 'info' as const }
  return (
    <section
      className={`panel ${styles.state}`}
      aria-labelledby="sd-history-title"
      data-history-installed={h.installed ? 'true' : 'false'}
    >
      <header className={styles.cardHead}>
        <h2 id="sd-history-title">History capture</h2>
        <SchemaBadge {...badge} />
        <span className="spacer" />
        <span className="mono small muted">{h.table}</span>
      </header>
      <dl className={styles.stats}>
        <Stat term="Installed" data-testid="history-installed">
          {h.installed ? 'yes' : 'no'}
        </Stat>
        <Stat term="Captured rows">{count(h.rows)}</Stat>
        <Stat
          term="Oldest capture"
          className={styles.statText}
          title={h.oldestCapturedAt ? absoluteTime(h.oldestCapturedAt) : undefined}
        >
          {h.oldestCapturedAt ? <TimeAgo iso={h.oldestCapturedAt} /> : '—'}
        </Stat>
        <Stat term="Retention">{h.retentionDays ? `${h.retentionDays} days` : '—'}</Stat>
      </dl>
      <p className={`small muted ${styles.explain}`}>{h.summary}</p>
    </section>
  )
}

export function RunIndexCard({ ix }: { ix: RunIndexState }) {
  const badge =
    ix.state === 'installed'
      ? { label: 'In use', tone: 'ok' as const }
      : ix.state === 'incomplete'
        ? { label: 'Incomplete', tone: 'warning' as const }
        : { label: 'Not installed', tone: 'info' as const }
  return (
    <section className={`panel ${styles.state}`} aria-labelledby="sd-index-title">
      <header className={styles.cardHead}>
        <h2 id="sd-index-title">Run index</h2>
        <SchemaBadge {...badge} />
      </header>
      <dl className={styles.stats}>
        <Stat term="Objects present">
          {ix.present} / {ix.expected}
        </Stat>
      </dl>
      <p className={`small muted ${styles.explain}`}>{ix.summary}</p>
    </section>
  )
}

export function MappingCard({ mapping }: { mapping: SchemaReport['mapping'] }) {
  const active = mapping.tables.length > 0
  return (
    <section className={`panel ${styles.state}`} aria-labelledby="sd-mapping-title" data-testid="schema-mapping">
      <header className={styles.cardHead}>
        <h2 id="sd-mapping-title">Schema mapping</h2>
        <span className="spacer" />
        <SchemaBadge
          label={
            active ? `${mapping.tables.length} table${mapping.tables.length === 1 ? '' : 's'} mapped` : 'Contract names'
          }
          tone={active ? 'info' : 'ok'}
        />
      </header>
      {active ? (
        <>
          <ul className={styles.collist}>
            {mapping.tables.map((t) => (
              <li key={t.contractTable}>
                <code>{t.contractTable}</code> → <code>{t.table}</code>
                {t.columns.length ? (
                  <span className="small muted">
                    {' '}
                    · {t.columns.map((c) => `${c.contract} → ${c.physical}`).join(', ')}
                  </span>
                ) : null}
              </li>
            ))}
          </ul>
          <p className={`small muted ${styles.explain}`}>
            From <code>{mapping.source}</code>. Every read and write uses these names; the rest of the console shows the
            contract&apos;s.
          </p>
        </>
      ) : (
        <p className={`small muted ${styles.explain}`}>
          Tables and columns are read under the contract&apos;s names. If your Loom renamed any, describe them in{' '}
          <code>LOOM_RUNS_SCHEMA_MAP</code> (JSON) or <code>LOOM_RUNS_SCHEMA_MAP_FILE</code>, e.g.{' '}
          <code>{'{"working_memory":{"table":"agent_memory","columns":{"content":"body"}}}'}</code>.
        </p>
      )}
    </section>
  )
}
