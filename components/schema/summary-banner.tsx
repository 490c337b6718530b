import type { SchemaReport } from '@/lib/schema/types'
import banner from './summary-banner.module.css'
import { REPORT_CLASS } from './schema-tone'

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`

/** One line that says whether the schema is fine, then the facts behind it. */
export function SummaryBanner({ report }: { report: SchemaReport }) {
  const { summary: s } = report
  const headline =
    report.status === 'ok'
      ? `Schema matches the contract: ${s.tablesPresent} of ${s.tablesExpected} tables and views present.`
      : report.status === 'warnings'
        ? `${plural(s.warnings, 'warning')}: the console works, with the limits listed below.`
        : `${plural(s.problems, 'problem')}${s.warnings ? ` and ${plural(s.warnings, 'warning')}` : ''}: parts of the console will fail until they are fixed.`
  return (
    <section
      className={`${banner.banner} ${REPORT_CLASS[report.status]}`}
      aria-label="Schema summary"
      role="status"
      data-status={report.status}
    >
      <div className={banner.bannerMain}>
        <span className={banner.bannerIcon} aria-hidden>
          {report.status === 'ok' ? '✓' : report.status === 'warnings' ? '!' : '✗'}
        </span>
        <div>
          <strong className={banner.headline}>{headline}</strong>
          <div className={`small ${banner.bannerFacts}`}>
            <span>
              {report.mode === 'embedded' ? 'Embedded' : 'Remote'} ClickHouse {report.clickhouseVersion ?? ''}
            </span>
            <span>
              {s.tablesPresent}/{s.tablesExpected} present
            </span>
            <span>{plural(s.problems, 'problem')}</span>
            <span>{plural(s.warnings, 'warning')}</span>
            {s.info ? <span>{plural(s.info, 'note')}</span> : null}
          </div>
        </div>
      </div>
      <dl className={banner.dbs} aria-label="Databases in use">
        {report.databases.map((d) => (
          <div key={d.role}>
            <dt>{d.role === 'loom' ? 'Loom' : d.role === 'telemetry' ? 'Telemetry' : 'Console'}</dt>
            <dd className="mono">
              {d.name} <span className={d.present ? 'text-ok' : 'text-bad'}>{d.present ? '✓' : 'missing'}</span>
            </dd>
            {d.otherTables.length ? (
              <dd className="small muted" title="Tables in this database that the contract does not name">
                also: {d.otherTables.join(', ')}
              </dd>
            ) : null}
          </div>
        ))}
      </dl>
    </section>
  )
}
