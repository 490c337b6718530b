import type { ReactNode } from 'react'

/** What a view says when its data holds nothing: a title, and optionally why or what would show here. */
export function EmptyState({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className="panel empty story-empty">
      <h3>{title}</h3>
      {children ? <div className="small">{children}</div> : null}
    </div>
  )
}

/** A one-line empty note, for a view too small for a titled one. */
export function EmptyNote({ className, children }: { className?: string; children: ReactNode }) {
  return <div className={className ? `panel empty ${className}` : 'panel empty'}>{children}</div>
}
