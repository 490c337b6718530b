import type { ReactNode } from 'react'

/** Placeholder rows while a tab's data loads. */
export function TabSkeleton({ label, rows = 4, chart = false }: { label: string; rows?: number; chart?: boolean }) {
  return (
    <div className="panel stack story-skeleton" aria-busy="true" aria-label={label} role="status">
      {chart ? <div className="skeleton" style={{ height: 160 }} /> : null}
      <div className="skeleton" style={{ width: '35%', height: 18 }} />
      {Array.from({ length: rows }, (_, i) => (
        <div key={i} className="skeleton" style={{ width: `${92 - i * 7}%` }} />
      ))}
    </div>
  )
}

export function TabEmpty({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className="panel empty story-empty">
      <h3>{title}</h3>
      {children ? <div className="small">{children}</div> : null}
    </div>
  )
}
