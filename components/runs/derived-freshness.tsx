'use client'

import { useQuery } from '@tanstack/react-query'
import { derivedFreshnessQueryOptions } from '@/lib/api-client/health'
import { Banner } from '../ui/banner'
import { freshnessNote } from './derived-freshness-model'

/** Says how old the runs list's derived data is, when it trails the agents' writes by more than 5 s. */
export function DerivedFreshnessNote() {
  const q = useQuery(derivedFreshnessQueryOptions())
  const note = freshnessNote(q.data)
  if (!note) return null
  return (
    <Banner tone={note.tone} role="status">
      <span data-derived-lag={q.data?.lagMs ?? ''}>{note.text}</span>
    </Banner>
  )
}
