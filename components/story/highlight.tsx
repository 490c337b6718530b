import type { ReactNode } from 'react'

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

function pattern(query: string): RegExp | null {
  const q = query.trim()
  return q ? new RegExp(`(${escapeRegExp(q)})`, 'iu') : null
}

/** Case-insensitive matches of `query` in `text`, wrapped in <mark> by splitting: no HTML is ever injected. */
export function Highlight({ text, query }: { text: string; query: string }): ReactNode {
  const re = pattern(query)
  if (!re) return text
  // With one capture group, split puts the matches at the odd indices.
  const parts = text.split(new RegExp(re.source, 'giu'))
  if (parts.length === 1) return text
  return <>{parts.map((p, i) => (i % 2 === 1 ? <mark key={i}>{p}</mark> : p))}</>
}

export function matches(text: string, query: string): boolean {
  const re = pattern(query)
  return !re || re.test(text)
}
