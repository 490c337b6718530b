import Link from 'next/link'
import { links } from '@/lib/links'

/** The tags of an audit entry written by a batch: its batch, and the batch it undid; each links to that batch's writes. */
export function BatchTags({ batchId, undoes }: { batchId: string | null; undoes: string | null }) {
  return (
    <>
      {batchId ? (
        <Link
          className="tag"
          href={links.audit({ batchId })}
          prefetch={false}
          title={`Every write of batch ${batchId}`}
        >
          batch <span className="mono">{batchId.slice(0, 8)}</span>
        </Link>
      ) : null}
      {undoes ? (
        <Link
          className="tag"
          href={links.audit({ batchId: undoes })}
          prefetch={false}
          title={`This write undid batch ${undoes}: its writes`}
        >
          undo of batch <span className="mono">{undoes.slice(0, 8)}</span>
        </Link>
      ) : null}
    </>
  )
}
