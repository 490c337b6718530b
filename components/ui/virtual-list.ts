import type { CSSProperties } from 'react'

/** The virtualized list's full height, as the CSS variable its stylesheet reads. */
export const listHeight = (px: number) => ({ '--list-height': `${px}px` }) as CSSProperties

/** Where a virtualized row sits, as the CSS variable its stylesheet reads. */
export const rowOffset = (px: number) => ({ '--row-y': `${px}px` }) as CSSProperties
