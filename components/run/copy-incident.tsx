'use client'

import { useState } from 'react'
import { links } from '@/lib/links'
import type { RunRef } from '@/lib/loom/identity'
import { errorText } from '../ui/error-banner'
import { Button } from '../ui/button'

type State = { kind: 'idle' } | { kind: 'busy' } | { kind: 'copied' } | { kind: 'failed'; message: string }

/**
 * Copies the run's incident summary (markdown: flags, why it resumed there, the last resume's diff,
 * operator actions, links back) for a ticket. Where the browser refuses the clipboard (a page served
 * over plain HTTP to another host), the summary opens as text to copy by hand.
 */
export function CopyIncident({ run }: { run: RunRef }) {
  const [state, setState] = useState<State>({ kind: 'idle' })
  const url = links.api.incident(run)
  const copy = async () => {
    setState({ kind: 'busy' })
    try {
      const res = await fetch(url, { headers: { accept: 'text/markdown' } })
      if (!res.ok) throw new Error(`the summary could not be made (${res.status})`)
      const text = await res.text()
      if (!navigator.clipboard) {
        window.open(url, '_blank', 'noopener')
        setState({ kind: 'failed', message: 'this page may not use the clipboard: the summary opened in a new tab' })
        return
      }
      await navigator.clipboard.writeText(text)
      setState({ kind: 'copied' })
    } catch (err) {
      setState({ kind: 'failed', message: errorText(err) })
    }
  }
  return (
    // Pushed to the end of the run_id line; the status text wraps under it when there is one.
    <span className="row gap-6" style={{ marginLeft: 'auto' }}>
      <Button
        size="small"
        onClick={() => void copy()}
        disabled={state.kind === 'busy'}
        title="Markdown for a ticket: flags, why it resumed there, the last resume's diff, operator actions, links back"
      >
        {state.kind === 'busy' ? 'Copying…' : 'Copy incident summary'}
      </Button>
      <span role="status" aria-live="polite" className="small muted">
        {state.kind === 'copied' ? (
          'Copied as markdown.'
        ) : state.kind === 'failed' ? (
          <>
            Not copied: {state.message}.{' '}
            <a href={url} target="_blank" rel="noopener noreferrer">
              Open it
            </a>
          </>
        ) : null}
      </span>
    </span>
  )
}
