'use client'

import { useQuery } from '@tanstack/react-query'
import Link from 'next/link'
import { runFacetsQueryOptions } from '@/lib/api-client/runs'
import { count } from '@/lib/format'
import { links } from '@/lib/links'
import type { RunsFilters } from '@/lib/runs-search'
import { FLAG_TEXT } from '@/lib/triage/flags'
import { Button } from '../ui/button'

const IDENTITY = ['org', 'namespace', 'agent'] as const

/** The filters as the operator set them, in words: "org = ac", "status failed", "search "x"". */
function filterWords(f: RunsFilters): string[] {
  const out: string[] = []
  for (const k of IDENTITY) if (f[k]) out.push(`${k} = ${f[k]}`)
  if (f.status) out.push(`status ${f.status}`)
  if (f.q) out.push(`search "${f.q}"`)
  if (f.from || f.to)
    out.push(`started ${f.from ? `from ${f.from}` : ''}${f.from && f.to ? ' ' : ''}${f.to ? `to ${f.to}` : ''}`)
  for (const flag of f.flag ?? []) out.push(`flag ${FLAG_TEXT[flag].label}`)
  return out
}

/**
 * An identity filter is an exact match: a value typed in part ("ac") finds nothing. Offer the values
 * that start with it (under the other identity filters), each a link to the list with it instead.
 */
function IdentitySuggestions({ filters, field }: { filters: RunsFilters; field: (typeof IDENTITY)[number] }) {
  const typed = filters[field] as string
  const narrow = {
    org: field === 'org' ? undefined : filters.org,
    namespace: field === 'namespace' ? undefined : filters.namespace,
  }
  const q = useQuery(runFacetsQueryOptions({ field, prefix: typed, ...narrow }))
  const values = (q.data?.values ?? []).filter((v) => v.value !== typed)
  if (!values.length) return null
  return (
    <p className="small" data-suggest={field}>
      {field} matches a whole value, not part of one. Did you mean{' '}
      {values.slice(0, 5).map((v, i) => (
        <span key={v.value}>
          {i > 0 ? ', ' : ''}
          <Link href={links.runsList({ ...filters, [field]: v.value })} prefetch={false}>
            {v.value}
          </Link>{' '}
          <span className="muted">
            ({count(v.runs)} run{v.runs === 1 ? '' : 's'})
          </span>
        </span>
      ))}
      ?
    </p>
  )
}

/** "No runs match": which filters matched nothing, what would, and a way out. */
export function NoRunsMatch({
  filters,
  pastLastPage,
  onClear,
}: {
  filters: RunsFilters
  pastLastPage: boolean
  onClear: () => void
}) {
  const words = filterWords(filters)
  return (
    <div className="panel empty" data-testid="no-runs-match">
      <p>
        <strong>{words.length ? `No runs match ${words.join(', ')}.` : 'No runs yet.'}</strong>
      </p>
      {pastLastPage ? <p className="small">This page is past the last run.</p> : null}
      {IDENTITY.filter((k) => filters[k]).map((k) => (
        <IdentitySuggestions key={k} filters={filters} field={k} />
      ))}
      {words.length ? (
        <p className="small">
          {filters.from || filters.to ? 'Widen the time range, or ' : ''}
          <Button size="small" onClick={onClear}>
            Clear filters
          </Button>
        </p>
      ) : (
        <p className="small">Runs appear here once an agent calls run.begin or writes a checkpoint.</p>
      )}
    </div>
  )
}
