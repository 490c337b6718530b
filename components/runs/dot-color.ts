import type { CSSProperties } from 'react'

/** A legend dot's colour comes from data (a status, a series), so it travels as a CSS variable. */
export const dotColor = (color: string) => ({ '--dot-color': color }) as CSSProperties
