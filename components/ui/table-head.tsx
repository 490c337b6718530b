import type { CSSProperties } from 'react'

/** A column heading: its text, or the text with what the column holds (a tooltip) and a class. */
export type Column = string | { label: string; title?: string; className?: string }

/** A table's head: one row of column headings (`th scope="col"`), in order. */
export function TableHead({ columns, style }: { columns: readonly Column[]; style?: CSSProperties }) {
  return (
    <thead>
      <tr style={style}>
        {columns.map((c) => {
          const { label, title, className } =
            typeof c === 'string' ? { label: c, title: undefined, className: undefined } : c
          return (
            <th key={label} scope="col" title={title} className={className}>
              {label}
            </th>
          )
        })}
      </tr>
    </thead>
  )
}
