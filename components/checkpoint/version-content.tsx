import { parseIdList } from '@/lib/diff'
import { count } from '@/lib/format'
import { prettyContent } from '../ui/content-view'
import { highlightJson } from './json-highlight'
import ck from './checkpoint.module.css'

const FOLD_AT = 700

/** A version's content: JSON pretty-printed and highlighted, id lists counted, long contents folded. */
export function VersionContent({ content, isDeleted, label }: { content: string; isDeleted?: boolean; label: string }) {
  if (isDeleted) return <p className="muted small">Tombstone: no content (a resume reading it returns None).</p>
  if (content === '') return <p className="muted small">(empty)</p>
  const { text, isJson } = prettyContent(content)
  const ids = isJson ? null : parseIdList(content)
  const body = (
    <pre className={`content ${ck.content}`} aria-label={label} data-json={isJson ? 'true' : undefined}>
      {isJson ? highlightJson(text) : text}
    </pre>
  )
  const meta = (
    <span className="small muted">
      {ids ? `${count(new Set(ids).size)} ids · ` : isJson ? 'JSON · ' : ''}
      {count(Array.from(content).length)} characters
    </span>
  )
  if (text.length <= FOLD_AT) {
    return (
      <div>
        {meta}
        {body}
      </div>
    )
  }
  return (
    <details className={ck.fold}>
      <summary>
        <span className={ck.foldPreview}>{text.slice(0, 90).replace(/\s+/g, ' ')}…</span> {meta} — show all
      </summary>
      {body}
    </details>
  )
}
