const KNOWN = new Set(['running', 'succeeded', 'failed', 'cancelled', 'unknown'])

export function StatusBadge({ status }: { status: string }) {
  const cls = KNOWN.has(status) ? status : 'unknown'
  return (
    <span className={`badge badge-${cls}`} title={status === 'unknown' ? 'No run.begin row: known only from its checkpoint' : undefined}>
      {status}
    </span>
  )
}
