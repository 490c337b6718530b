import type { ComponentProps, ReactNode } from 'react'

/** One entry of a list of figures (`dl`): what it is, and its value (the `dd` takes any further props). */
export function Stat({ term, children, ...dd }: { term: ReactNode } & ComponentProps<'dd'>) {
  return (
    <div>
      <dt>{term}</dt>
      <dd {...dd}>{children}</dd>
    </div>
  )
}
