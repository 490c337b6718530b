'use client'

import { useState } from 'react'

/**
 * Add or remove items of an id-list state ("item-001 item-002 …"). The list is written
 * back sorted, as `" ".join(sorted(done))` writes it, so a resume reads the same format.
 */
export function IdListEditor({ ids, onChange }: { ids: string[]; onChange: (ids: string[]) => void }) {
  const [item, setItem] = useState('')
  const add = () => {
    const next = item.trim().split(/[\s,]+/).filter(Boolean)
    if (next.length === 0) return
    onChange([...new Set([...ids, ...next])].sort())
    setItem('')
  }
  return (
    <fieldset className="stack idlist" style={{ gap: 6 }}>
      <legend className="small muted">
        Items done ({ids.length}) — removing an item makes the next resume redo it
      </legend>
      <ul className="idlist-items" aria-label="Items in the checkpoint">
        {ids.slice(0, 400).map((id) => (
          <li key={id}>
            <span className="mono">{id}</span>
            <button type="button" className="idlist-remove" aria-label={`Remove ${id}`} onClick={() => onChange(ids.filter((x) => x !== id))}>
              ×
            </button>
          </li>
        ))}
        {ids.length > 400 ? <li className="muted small">…and {ids.length - 400} more (edit them in the text)</li> : null}
      </ul>
      <div className="row">
        <input
          aria-label="Item to add"
          placeholder="item-121"
          value={item}
          onChange={(e) => setItem(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter') {
              e.preventDefault()
              add()
            }
          }}
        />
        <button type="button" className="btn" onClick={add} disabled={item.trim() === ''}>
          Add item
        </button>
      </div>
    </fieldset>
  )
}
