'use client'

import { useMemo, useState } from 'react'
import type { Block } from '@/lib/api/types'
import { describeDiff, diffContents } from '@/lib/diff'
import { mergeContents } from '@/lib/merge/merge-contents'
import type { MergeResult, Side } from '@/lib/merge/types'

/** What resume() would read from a block: nothing for a tombstone. */
export function contentOf(block: Block): string {
  return block.isDeleted ? '' : block.content
}

type MergeState = {
  /** The version the operator's edit started from (the merge base). */
  from: Block
  /** The version written since, which the edit is re-applied onto. */
  onto: Block
  /** The operator's content at the time of the re-apply. */
  mine: string
  choices: Record<string, Side>
  /** The content is the operator's own text, no longer derived from the choices. */
  byHand: boolean
}

export type MergeView = {
  from: Block
  onto: Block
  result: MergeResult
  byHand: boolean
  theirChange: string
  myChange: string
}

/**
 * The editor's content, and the three-way merge that re-applies it onto a newer version: while
 * conflicts are open the content follows the operator's choices (and cannot be typed into),
 * until every conflict is resolved or the operator chooses to edit by hand.
 */
export function useMergeDraft(initial: string) {
  const [draft, setDraft] = useState(initial)
  const [merge, setMerge] = useState<MergeState | null>(null)

  const view = useMemo<MergeView | null>(() => {
    if (!merge) return null
    const base = contentOf(merge.from)
    const theirs = contentOf(merge.onto)
    const result = mergeContents(base, theirs, merge.mine, {
      choices: merge.choices,
      markers: { mine: 'mine', theirs: `v${merge.onto.version}` },
    })
    return {
      from: merge.from,
      onto: merge.onto,
      result,
      byHand: merge.byHand,
      theirChange: merge.onto.isDeleted ? 'cleared the block' : describeDiff(diffContents(base, theirs)),
      myChange: describeDiff(diffContents(base, merge.mine)),
    }
  }, [merge])

  const derived = !!merge && !!view && !merge.byHand && view.result.conflicts.length > 0
  const text = derived ? view.result.content : draft

  return {
    text,
    merge: view,
    /** Conflicts still open: the content is not final and cannot be typed into. */
    locked: derived && view.result.unresolved > 0,
    edit(next: string) {
      if (derived) setMerge({ ...merge, byHand: true })
      setDraft(next)
    },
    /** Merges the current content (based on `from`) onto `onto`. */
    reapply(from: Block, onto: Block) {
      const mine = text
      const result = mergeContents(contentOf(from), contentOf(onto), mine)
      setDraft(result.content)
      setMerge({ from, onto, mine, choices: {}, byHand: result.conflicts.length === 0 })
    },
    /** Drops the edit and any merge: start again from `block`. */
    reset(block: Block) {
      setDraft(contentOf(block))
      setMerge(null)
    },
    choose(id: string, side: Side) {
      if (merge) setMerge({ ...merge, choices: { ...merge.choices, [id]: side } })
    },
    chooseAll(side: Side) {
      if (merge && view)
        setMerge({ ...merge, choices: Object.fromEntries(view.result.conflicts.map((c) => [c.id, side])) })
    },
    editByHand() {
      if (!merge || !view) return
      setDraft(view.result.content)
      setMerge({ ...merge, byHand: true })
    },
    backToChoices() {
      if (merge) setMerge({ ...merge, byHand: false })
    },
  }
}
