'use client'

import { useVirtualizer, type VirtualItem, type VirtualizerOptions } from '@tanstack/react-virtual'
import { useRef } from 'react'
import { listHeight, rowOffset } from './virtual-list'

type Options = Pick<
  VirtualizerOptions<HTMLDivElement, Element>,
  | 'count'
  | 'estimateSize'
  | 'getItemKey'
  | 'gap'
  | 'overscan'
  | 'initialRect'
  | 'measureElement'
  | 'scrollMargin'
  | 'scrollPaddingStart'
>

/**
 * The rows of a long list that scrolls inside its own box (see virtual-list.module.css): only those
 * in view, and `overscan` more around them, are in the DOM, each measured as it renders. `scrollRef`
 * goes on the box, `listStyle` on the list, and each row gets `key={row.key}` and `rowProps(row)`.
 * A table, whose rows cannot be placed at offsets, reads `rows` and `virtualizer` for its spacer rows;
 * `scrollMargin` and `scrollPaddingStart` then make room for a sticky header inside the box.
 * TanStack Virtual returns fresh functions each render, so what the list draws is read from it here,
 * anew on every render, rather than memoized around it.
 */
/**
 * For a list the server renders: its HTML and the first client render show the first rows (as if in an
 * 800 × 640 box, with 4 more around them), before any measurement.
 */
export const SERVER_RENDERED_ROWS = { overscan: 4, initialRect: { width: 800, height: 640 } }

export function useVirtualRows(options: Options) {
  const scrollRef = useRef<HTMLDivElement>(null)
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({ ...options, getScrollElement: () => scrollRef.current })
  return {
    scrollRef,
    virtualizer,
    rows: virtualizer.getVirtualItems(),
    listStyle: listHeight(virtualizer.getTotalSize()),
    rowProps: (row: VirtualItem) => ({
      ref: virtualizer.measureElement,
      'data-index': row.index,
      style: rowOffset(row.start),
    }),
  }
}
