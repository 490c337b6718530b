import type { ListCut } from '@/lib/api/types'
import { count } from '@/lib/format'

/** Says plainly that a list shows only its first N rows, so nobody reads it as everything. */
export function ListCutNotice({
  cuts,
  nouns,
}: {
  cuts: readonly ListCut[] | undefined
  nouns: Record<string, string>
}) {
  if (!cuts || cuts.length === 0) return null
  return (
    <>
      {cuts.map((c) => (
        <div key={c.list} className="banner banner-warn" role="status" data-list-cut={c.list}>
          <span>
            Showing the first {count(c.limit)} {nouns[c.list] ?? c.list} only: this run has more, and the list was cut
            there. The export has the same limit.
          </span>
        </div>
      ))}
    </>
  )
}
