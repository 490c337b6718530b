import Link from 'next/link'
import type { ReactNode } from 'react'

/** What a 404 shows: a title, why nothing is here, and the way back to the list. */
export function NotFoundPanel({ title, children }: { title: string; children: ReactNode }) {
  return (
    <div className="panel empty stack" role="alert">
      <h1>{title}</h1>
      <p>{children}</p>
      <p>
        <Link prefetch={false} href="/">
          Back to all runs
        </Link>
      </p>
    </div>
  )
}
