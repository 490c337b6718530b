import { RUN_STATUSES } from '@/lib/runs-search'

const KNOWN = new Set<string>(RUN_STATUSES)

export function StatusBadge({ status }: { status: string }) {
  const cls = KNOWN.has(status) ? status : 'unknown'
  return (
    <span className={`badge badge-${cls}`} title={status === 'unknown' ? 'No run.begin row: known only from its checkpoint' : undefined}>
      {status}
    </span>
  )
}
