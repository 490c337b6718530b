import { count, percent } from '@/lib/format'

/** Size of a block against its char_limit, with a warning colour past 90 %. */
export function CharMeter({ chars, limit }: { chars: number; limit: number }) {
  const pct = percent(chars, limit)
  const cls = pct >= 100 ? 'bad' : pct >= 90 ? 'warn' : ''
  return (
    <span className="row gap-6" title={`${count(chars)} of ${count(limit)} characters (${pct}%)`}>
      <span
        className={`meter ${cls}`}
        role="meter"
        aria-valuemin={0}
        aria-valuemax={limit}
        aria-valuenow={chars}
        aria-label="characters used"
      >
        <span style={{ width: `${pct}%` }} />
      </span>
      <span className="small muted">
        {count(chars)}/{count(limit)}
      </span>
    </span>
  )
}
