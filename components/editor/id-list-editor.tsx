'use client'

import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react'
import styles from './id-list-editor.module.css'
import { Button } from '../ui/button'
import { bindText } from '../ui/bind-text'

const SHOWN = 400

/**
 * Add or remove items of an id-list state ("item-001 item-002 …"). The list is written
 * back sorted, as `" ".join(sorted(done))` writes it, so a resume reads the same format.
 *
 * The items are one stop for the Tab key (a toolbar with a roving tabindex): arrow keys, Home and
 * End move between them and Delete removes one, so a list of hundreds does not stand between the
 * content and the fields after it.
 */
export function IdListEditor({ ids, onChange }: { ids: string[]; onChange: (ids: string[]) => void }) {
  const [item, setItem] = useState('')
  const [active, setActive] = useState(0)
  const buttons = useRef<(HTMLButtonElement | null)[]>([])
  const focusAfterChange = useRef<number | null>(null)
  const hintId = useId()
  const shown = ids.slice(0, SHOWN)
  const current = Math.min(active, Math.max(0, shown.length - 1))

  useEffect(() => {
    const i = focusAfterChange.current
    if (i === null) return
    focusAfterChange.current = null
    buttons.current[Math.min(i, shown.length - 1)]?.focus()
  }, [ids, shown.length])

  const add = () => {
    const next = item
      .trim()
      .split(/[\s,]+/)
      .filter(Boolean)
    if (next.length === 0) return
    onChange([...new Set([...ids, ...next])].sort())
    setItem('')
  }
  const remove = (i: number) => {
    setActive(Math.min(i, shown.length - 2))
    focusAfterChange.current = i
    onChange(ids.filter((x) => x !== shown[i]))
  }
  const moveTo = (i: number) => {
    const j = Math.max(0, Math.min(shown.length - 1, i))
    setActive(j)
    buttons.current[j]?.focus()
  }
  const onItemsKey = (e: KeyboardEvent) => {
    const moves: Record<string, number> = {
      ArrowRight: current + 1,
      ArrowDown: current + 1,
      ArrowLeft: current - 1,
      ArrowUp: current - 1,
      Home: 0,
      End: shown.length - 1,
    }
    if (e.key in moves) {
      e.preventDefault()
      moveTo(moves[e.key])
    } else if (e.key === 'Delete' || e.key === 'Backspace') {
      e.preventDefault()
      remove(current)
    }
  }

  return (
    <fieldset className={styles.list}>
      <legend className="small muted">
        Items done ({ids.length}) — removing an item makes the next resume redo it
      </legend>
      <p id={hintId} className={`small muted ${styles.hint}`}>
        Arrow keys move between items; Delete or Enter removes the one in focus.
      </p>
      {shown.length > 0 ? (
        <div
          className={styles.items}
          role="toolbar"
          aria-label="Items in the checkpoint"
          aria-describedby={hintId}
          onKeyDown={onItemsKey}
        >
          {shown.map((id, i) => (
            <span key={id} className={styles.item}>
              <span className="mono">{id}</span>
              <button
                ref={(el) => {
                  buttons.current[i] = el
                }}
                type="button"
                className={styles.remove}
                aria-label={`Remove ${id}`}
                tabIndex={i === current ? 0 : -1}
                onFocus={() => setActive(i)}
                onClick={() => remove(i)}
              >
                ×
              </button>
            </span>
          ))}
          {ids.length > SHOWN ? (
            <span className="muted small">…and {ids.length - SHOWN} more (edit them in the text)</span>
          ) : null}
        </div>
      ) : null}
      <div className="row">
        <input
          aria-label="Item to add"
          placeholder="item-121"
          {...bindText(item, setItem)}
          onKeyDown={(e) => {
            if (e.key === 'Enter') {
              e.preventDefault()
              add()
            }
          }}
        />
        <Button onClick={add} disabled={item.trim() === ''}>
          Add item
        </Button>
      </div>
    </fieldset>
  )
}
