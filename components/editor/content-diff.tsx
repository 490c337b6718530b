import { describeDiff, diffContents } from '@/lib/diff'
import { JsonDiffView, SetDiffView, TextDiffView } from '../checkpoint/diff-views'

/** A diff of two contents, in the form that fits them (set, JSON or lines). */
export function ContentDiff({ before, after, label }: { before: string; after: string; label: string }) {
  const d = diffContents(before, after)
  return (
    <section className="stack gap-6" aria-label={label}>
      <p className="small muted flush">{describeDiff(d)}</p>
      {d.identical ? null : d.kind === 'set' ? (
        <SetDiffView diff={d} />
      ) : d.kind === 'json' ? (
        <JsonDiffView diff={d} />
      ) : (
        <TextDiffView diff={d} />
      )}
    </section>
  )
}
