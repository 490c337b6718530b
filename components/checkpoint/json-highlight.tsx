import { Fragment, type ReactNode } from 'react'
import ck from './checkpoint.module.css'

/** Strings (a key when followed by a colon), literals and numbers of pretty-printed JSON. */
const TOKEN = /("(?:[^"\\]|\\.)*")(\s*:)?|\b(true|false|null)\b|(-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)/g

/** Pretty-printed JSON as React text with spans for keys, strings, numbers and literals (no HTML injection). */
export function highlightJson(text: string): ReactNode[] {
  const out: ReactNode[] = []
  let last = 0
  let i = 0
  for (const m of text.matchAll(TOKEN)) {
    const at = m.index ?? 0
    if (at > last) out.push(<Fragment key={i++}>{text.slice(last, at)}</Fragment>)
    if (m[1] !== undefined) {
      out.push(
        <span key={i++} className={m[2] !== undefined ? ck.jsonKey : ck.jsonString}>
          {m[1]}
        </span>,
      )
      if (m[2] !== undefined) out.push(<Fragment key={i++}>{m[2]}</Fragment>)
    } else if (m[3] !== undefined) {
      out.push(
        <span key={i++} className={ck.jsonLiteral}>
          {m[3]}
        </span>,
      )
    } else {
      out.push(
        <span key={i++} className={ck.jsonNumber}>
          {m[4]}
        </span>,
      )
    }
    last = at + m[0].length
  }
  if (last < text.length) out.push(<Fragment key={i++}>{text.slice(last)}</Fragment>)
  return out
}

export function JsonInline({ value, max = 160 }: { value: unknown; max?: number }) {
  const full = value === undefined ? '—' : JSON.stringify(value)
  const shown = full.length > max ? `${full.slice(0, max - 1)}…` : full
  return (
    <code className={ck.jsonInline} title={full.length > max ? full : undefined}>
      {value === undefined ? shown : highlightJson(shown)}
    </code>
  )
}
