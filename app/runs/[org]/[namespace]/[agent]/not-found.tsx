import Link from 'next/link'

export default function RunNotFound() {
  return (
    <div className="panel empty stack" role="alert">
      <h1>Run not found</h1>
      <p>
        No run with this id exists under this org, namespace and agent. It may have been written under another agent, or
        the link is wrong.
      </p>
      <p>
        <Link prefetch={false} href="/">
          Back to all runs
        </Link>
      </p>
    </div>
  )
}
