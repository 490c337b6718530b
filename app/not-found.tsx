import type { Metadata } from 'next'
import Link from 'next/link'

export const metadata: Metadata = { title: 'Not found' }

/** The console's own 404 for any path it does not serve. */
export default function NotFound() {
  return (
    <div className="panel empty stack" role="alert">
      <h1>Page not found</h1>
      <p>
        The console has no page here. A run&apos;s address is <code>/runs/org/namespace/agent/run_id</code>.
      </p>
      <p>
        <Link prefetch={false} href="/">
          Back to all runs
        </Link>
      </p>
    </div>
  )
}
