'use client'

import { useEffect, useId, useState } from 'react'
import { useTheme } from './use-theme'

type Rendered = { key: string; svg: string | null; error: string | null }

let renderCount = 0

/**
 * The run's resume flow, drawn client-side by mermaid from the flowchart text the API built.
 * securityLevel 'strict' makes mermaid sanitize its own output, which is the only HTML this tab injects.
 */
export function ResumeFlowDiagram({ text }: { text: string }) {
  const theme = useTheme()
  const baseId = `ck-flow-${useId().replace(/[^a-zA-Z0-9]/g, '')}`
  const key = `${theme}\u0000${text}`
  const [rendered, setRendered] = useState<Rendered | null>(null)

  useEffect(() => {
    if (theme === null) return
    let cancelled = false
    const id = `${baseId}-${++renderCount}`
    const draw = async () => {
      try {
        const { default: mermaid } = await import('mermaid')
        mermaid.initialize({ startOnLoad: false, securityLevel: 'strict', theme: theme === 'dark' ? 'dark' : 'default' })
        const { svg } = await mermaid.render(id, text)
        if (!cancelled) setRendered({ key, svg, error: null })
      } catch (err) {
        // A failed render can leave mermaid's scratch element in the body.
        document.getElementById(id)?.remove()
        document.getElementById(`d${id}`)?.remove()
        if (!cancelled) setRendered({ key, svg: null, error: err instanceof Error ? err.message : String(err) })
      }
    }
    void draw()
    return () => {
      cancelled = true
    }
  }, [baseId, key, text, theme])

  const current = rendered?.key === key ? rendered : null
  return (
    <figure className="ck-flow" aria-label="Resume flow diagram">
      {current?.svg ? (
        <div className="ck-flow-svg" dangerouslySetInnerHTML={{ __html: current.svg }} />
      ) : current?.error ? (
        <p className="ck-bad small" role="alert">
          Could not draw the diagram: {current.error}
        </p>
      ) : (
        <div className="ck-flow-loading" aria-busy="true" aria-label="Drawing the diagram">
          <div className="skeleton" style={{ height: 60, width: '70%' }} />
          <div className="skeleton" style={{ height: 60, width: '70%' }} />
        </div>
      )}
      <figcaption className="small muted">
        Process segments (boxes), what started the next one (arrows), clears (circles).{' '}
        <details className="ck-inline-details">
          <summary>mermaid source</summary>
          <pre className="content">{text}</pre>
        </details>
      </figcaption>
    </figure>
  )
}
