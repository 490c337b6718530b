'use client'

import { useQuery, useQueryClient } from '@tanstack/react-query'
import { useEffect, useId, useRef, useState } from 'react'
import { count } from '@/lib/format'
import { runFacetsQueryOptions, runsListQueryOptions } from '@/lib/api-client/runs'
import { runsFilters, runsListParams } from '@/lib/runs-search'
import type { FacetsParams } from '@/lib/api/types'
import { useNow } from '../ui/use-now'
import { FlagFilter } from './flag-filter'
import { STATUSES, useRunsFilters } from './use-runs-filters'
import { useHydrated } from '../ui/use-hydrated'
import { buttonClass } from '../ui/button'
import { ValueOptions } from '../ui/value-options'

/** A text filter applies this long after the last key (short enough that the list narrows as one types). */
const TYPING_PAUSE_MS = 100

const RANGES: { label: string; hours: number | null }[] = [
  { label: 'Any time', hours: null },
  { label: 'Last hour', hours: 1 },
  { label: 'Last 24 hours', hours: 24 },
  { label: 'Last 7 days', hours: 24 * 7 },
  { label: 'Last 30 days', hours: 24 * 30 },
]

/** What the operator has typed, once they pause: suggestions ask for that, not for every key. */
function useSettled(value: string, ms = 150) {
  const [settled, setSettled] = useState(value)
  useEffect(() => {
    const t = setTimeout(() => setSettled(value), ms)
    return () => clearTimeout(t)
  }, [value, ms])
  return settled
}

/**
 * Values of the field starting with what was typed, most runs first, as the input's <datalist>:
 * picking one fills the box; the filter itself stays an exact match.
 */
function Suggestions({
  id,
  suggest,
  typed,
  active,
}: {
  id: string
  suggest: Omit<FacetsParams, 'prefix'>
  typed: string
  active: boolean
}) {
  const prefix = useSettled(typed.trim())
  const query = useQuery({ ...runFacetsQueryOptions({ ...suggest, prefix: prefix || undefined }), enabled: active })
  return (
    <datalist id={id} data-testid={`suggestions-${suggest.field}`}>
      {(query.data?.values ?? []).map((v) => (
        <option key={v.value} value={v.value} label={`${count(v.runs)} run${v.runs === 1 ? '' : 's'}`} />
      ))}
    </datalist>
  )
}

function TextFilter({
  label,
  name,
  value,
  onCommit,
  type = 'text',
  placeholder,
  suggest,
}: {
  label: string
  /** The URL parameter it sets: the form submits it as a plain GET before the page's scripts have loaded. */
  name: string
  value: string | null
  onCommit: (v: string | null) => void
  type?: string
  placeholder?: string
  /** Offer the values this field has (from the facets route), narrowed by the other filters. */
  suggest?: Omit<FacetsParams, 'prefix'>
}) {
  const listId = useId()
  const input = useRef<HTMLInputElement>(null)
  const [draft, setDraft] = useState(value ?? '')
  const [focused, setFocused] = useState(false)
  // When the URL changes underneath (back button, "clear filters"), the draft follows it.
  const [seen, setSeen] = useState(value)
  if (seen !== value) {
    setSeen(value)
    setDraft(value ?? '')
  }
  // The box is uncontrolled, so what an operator typed before the scripts ran survives hydration and is
  // applied as soon as they do; a draft set from the URL is written into it here.
  useEffect(() => {
    const typed = input.current?.value ?? ''
    if (typed !== (seen ?? '')) setDraft(typed)
    // Once, on the first client render: only text typed before hydration can differ here.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [])
  const mounted = useRef(false)
  useEffect(() => {
    const el = input.current
    // Not on the first render: the box then holds the server's value or what was typed before hydration.
    if (mounted.current && el && el.value !== draft) el.value = draft
    mounted.current = true
  }, [draft])
  useEffect(() => {
    if ((value ?? '') === draft) return
    const t = setTimeout(() => onCommit(draft.trim() === '' ? null : draft.trim()), TYPING_PAUSE_MS)
    return () => clearTimeout(t)
  }, [draft, value, onCommit])
  return (
    <label className="field">
      {label}
      <input
        ref={input}
        type={type}
        name={name}
        defaultValue={value ?? ''}
        placeholder={placeholder}
        list={suggest ? listId : undefined}
        autoComplete={suggest ? 'off' : undefined}
        onChange={(e) => setDraft(e.target.value)}
        onFocus={() => setFocused(true)}
        onBlur={() => setFocused(false)}
        onKeyDown={(e) => {
          if (e.key === 'Enter') {
            e.preventDefault()
            onCommit(draft.trim() === '' ? null : draft.trim())
          }
        }}
      />
      {suggest ? <Suggestions id={listId} suggest={suggest} typed={draft} active={focused} /> : null}
    </label>
  )
}

export function RunsFilters() {
  const [f, setFilters] = useRunsFilters()
  const queryClient = useQueryClient()
  // A change asks for the new first page at once, before the page renders with the new URL state
  // (the list's own query then joins that request), and goes back to the first page.
  const setF = (patch: Omit<Parameters<typeof setFilters>[0] & object, 'cursor'>) => {
    const next = runsFilters({ ...f, ...patch } as Parameters<typeof runsFilters>[0])
    void queryClient.prefetchQuery(runsListQueryOptions(runsListParams(next)))
    void setFilters({ ...patch })
  }
  const hydrated = useHydrated()
  const now = useNow()
  const rangeHours = f.from && !f.to && now !== null ? Math.round((now - Date.parse(f.from)) / 3_600_000) : null
  const selectedRange = RANGES.find(
    (r) => r.hours !== null && rangeHours !== null && Math.abs(r.hours - rangeHours) <= 1,
  )
  const active = [f.org, f.namespace, f.agent, f.status, f.q, f.from, f.to].some(Boolean) || f.flag.length > 0
  // A plain GET form underneath: before the scripts load (or if they fail) Enter or Apply loads the
  // filtered page from the server; once they run, every change applies in place as the operator types.
  return (
    <form
      className="filters"
      role="search"
      aria-label="Filter runs"
      method="get"
      action="/"
      onSubmit={(e) => e.preventDefault()}
    >
      <fieldset className="filters-set">
        <TextFilter
          label="Search goal or run id"
          name="q"
          type="search"
          value={f.q}
          placeholder="e.g. invoices or run-…"
          onCommit={(q) => setF({ q })}
        />
        <TextFilter label="Org" name="org" value={f.org} suggest={{ field: 'org' }} onCommit={(org) => setF({ org })} />
        <TextFilter
          label="Namespace"
          name="namespace"
          value={f.namespace}
          suggest={{ field: 'namespace', org: f.org ?? undefined }}
          onCommit={(namespace) => setF({ namespace })}
        />
        <TextFilter
          label="Agent"
          name="agent"
          value={f.agent}
          suggest={{ field: 'agent', org: f.org ?? undefined, namespace: f.namespace ?? undefined }}
          onCommit={(agent) => setF({ agent })}
        />
        <label className="field">
          Status
          <select
            name="status"
            value={f.status ?? ''}
            onChange={(e) => setF({ status: (e.target.value || null) as (typeof STATUSES)[number] | null })}
          >
            <ValueOptions none="All" values={STATUSES} />
          </select>
        </label>
        <label className="field">
          Started
          <select
            value={f.to ? 'custom' : selectedRange ? String(selectedRange.hours) : f.from ? 'custom' : ''}
            onChange={(e) => {
              const hours = e.target.value === '' ? null : Number(e.target.value)
              setF({ from: hours === null ? null : new Date(Date.now() - hours * 3_600_000).toISOString(), to: null })
            }}
          >
            {RANGES.map((r) => (
              <option key={r.label} value={r.hours === null ? '' : String(r.hours)}>
                {r.label}
              </option>
            ))}
            {f.from || f.to ? (
              <option value="custom" disabled>
                Custom range
              </option>
            ) : null}
          </select>
        </label>
        <FlagFilter value={f.flag} onChange={(flag) => setF({ flag })} />
        {active ? (
          <button
            type="button"
            className={buttonClass('default')}
            onClick={() =>
              setF({ org: null, namespace: null, agent: null, status: null, q: null, from: null, to: null, flag: null })
            }
          >
            Clear filters
          </button>
        ) : null}
        {/* Needed only until the scripts run (Enter in a box also submits): then filters apply as they change. */}
        {hydrated ? null : (
          <button type="submit" className={buttonClass('default')}>
            Apply filters
          </button>
        )}
      </fieldset>
    </form>
  )
}
