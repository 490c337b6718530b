/** Block or payload text: JSON pretty-printed, long text folded. */
export function prettyContent(text: string): { text: string; isJson: boolean } {
  const t = text.trim()
  if ((t.startsWith('{') && t.endsWith('}')) || (t.startsWith('[') && t.endsWith(']'))) {
    try {
      return { text: JSON.stringify(JSON.parse(t), null, 2), isJson: true }
    } catch {
      // Not JSON after all: show it as text.
    }
  }
  return { text, isJson: false }
}

export function ContentView({ text, foldAt = 600, label }: { text: string; foldAt?: number; label?: string }) {
  if (text === '') return <p className="muted small">(empty)</p>
  const { text: shown, isJson } = prettyContent(text)
  const body = (
    <pre className="content" aria-label={label} data-json={isJson ? 'true' : undefined}>
      {shown}
    </pre>
  )
  if (shown.length <= foldAt) return body
  return (
    <details>
      <summary>
        {shown.slice(0, 120).replace(/\s+/g, ' ')}… ({shown.length.toLocaleString('en')} characters, click to expand)
      </summary>
      {body}
    </details>
  )
}
