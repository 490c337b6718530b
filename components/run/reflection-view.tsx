import { ContentView } from '../ui/content-view'

const LISTS = [
  ['went_well', 'Went well'],
  ['went_wrong', 'Went wrong'],
  ['lessons', 'Lessons'],
] as const

type Parsed = { summary: string | null; lists: { title: string; items: string[] }[]; rest: Record<string, unknown> }

/** A reflection as Loom's agents write it (JSON: summary, went_well, went_wrong, lessons); null when it is not that. */
export function parseReflection(text: string): Parsed | null {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    return null
  }
  // A JSON string holding the reflection: read what it holds.
  if (typeof value === 'string') return { summary: value, lists: [], rest: {} }
  if (!value || typeof value !== 'object' || Array.isArray(value)) return null
  const rest: Record<string, unknown> = { ...(value as Record<string, unknown>) }
  const summary = typeof rest.summary === 'string' ? rest.summary : null
  if (summary !== null) delete rest.summary
  const lists: Parsed['lists'] = []
  for (const [key, title] of LISTS) {
    const v = rest[key]
    if (Array.isArray(v) && v.every((x) => typeof x === 'string')) {
      delete rest[key]
      if (v.length) lists.push({ title, items: v })
    }
  }
  if (summary === null && lists.length === 0) return null
  return { summary, lists, rest }
}

/** The run's reflection, read as sentences and lists; any other shape as pretty-printed text. */
export function ReflectionView({ text }: { text: string }) {
  const parsed = parseReflection(text)
  if (!parsed) return <ContentView text={text} label="Reflection" foldAt={1200} />
  const restKeys = Object.keys(parsed.rest)
  const parts = parsed.lists.map((l) => `${l.title.toLowerCase()} (${l.items.length})`)
  if (restKeys.length) parts.push('other fields')
  const body = (
    <>
      {parsed.lists.map((l) => (
        <div key={l.title}>
          <h4 className="flush small">{l.title}</h4>
          <ul className="flush small">
            {l.items.map((item, i) => (
              <li key={i}>{item}</li>
            ))}
          </ul>
        </div>
      ))}
      {restKeys.length ? <ContentView text={JSON.stringify(parsed.rest)} label="Other reflection fields" /> : null}
    </>
  )
  return (
    <div className="stack gap-6" data-testid="reflection">
      {parsed.summary ? <p className="flush">{parsed.summary}</p> : null}
      {parts.length ? (
        // The lists fold away so that a long reflection does not push the run's tabs off a phone's first screen.
        <details>
          <summary className="small">Show {parts.join(', ')}</summary>
          <div className="stack gap-6">{body}</div>
        </details>
      ) : null}
    </div>
  )
}
