'use client'

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import Link from 'next/link'
import { parseAsString, useQueryState } from 'nuqs'
import { useId, useState } from 'react'
import { viewKeys } from '@/lib/api-client/keys'
import {
  createViewRequest,
  deleteViewRequest,
  deliveriesQueryOptions,
  testViewRequest,
  updateViewRequest,
  viewsQueryOptions,
  type ViewInput,
} from '@/lib/api-client/views'
import { absoluteTime } from '@/lib/format'
import { links } from '@/lib/links'
import type { RunsFilters } from '@/lib/runs-search'
import type { SavedView } from '@/lib/views/types'
import { RefusalBanner } from '../editor/refusal-banner'
import { refusalOf, type WriteRefusal } from '../editor/use-block-write'
import { usePermissions } from '../editor/use-permissions'
import { Tag } from '../ui/badge'
import { Button } from '../ui/button'
import { Dialog } from '../ui/dialog'
import styles from './saved-views.module.css'
import { bindText } from '../ui/bind-text'

const NAME_MAX = 80

function filterText(f: Record<string, unknown>): string {
  const parts = Object.entries(f)
    .filter(([, v]) => v !== undefined && v !== null && (!Array.isArray(v) || v.length > 0))
    .map(([k, v]) => `${k}=${Array.isArray(v) ? v.join('+') : String(v)}`)
  return parts.length ? parts.join(', ') : 'every run'
}

type Editing = { mode: 'create'; filter: Record<string, unknown> } | { mode: 'edit'; view: SavedView }

/** Saved filters of the runs list: open one, save the current filter, rename, share, alert, delete. */
export function SavedViews({ filters }: { filters: RunsFilters }) {
  const { canWrite, readOnly, user } = usePermissions()
  const me = user?.name ?? 'local'
  const q = useQuery(viewsQueryOptions())
  const [active] = useQueryState('view', parseAsString)
  const [editing, setEditing] = useState<Editing | null>(null)
  const views = q.data?.views ?? []
  const current = views.find((v) => v.id === active) ?? null
  const editable = (v: SavedView) => !readOnly && (v.shared ? canWrite : v.owner === me)
  return (
    <details className={`panel ${styles.panel}`} data-testid="saved-views" open={current ? true : undefined}>
      <summary>
        Saved views <span className="muted small">({views.length})</span>
        {current ? (
          <span className="small">
            {' '}
            · showing <strong>{current.name}</strong>
          </span>
        ) : null}
      </summary>
      <div className={styles.body}>
        {q.isError ? <p className="small">Saved views could not be read: {(q.error as Error).message}</p> : null}
        {views.length ? (
          <ul className={styles.list} aria-label="Saved views">
            {views.map((v) => (
              <li key={v.id} className={styles.item} data-view={v.id}>
                <Link
                  prefetch={false}
                  href={links.savedView(v.id)}
                  aria-current={v.id === active ? 'true' : undefined}
                  className={styles.name}
                >
                  {v.name}
                </Link>
                <span className="small muted">{filterText(v.filter)}</span>
                <span className="small">
                  <Tag>{v.shared ? 'shared' : 'private'}</Tag>
                  {v.alert ? (
                    <Tag className={v.alert.enabled ? undefined : 'muted'}>
                      alert ≥ {v.alert.threshold}
                      {v.alert.enabled ? '' : ' (off)'}
                    </Tag>
                  ) : null}
                  {v.owner !== me ? <span className="muted"> by {v.owner}</span> : null}
                </span>
                {editable(v) ? (
                  <Button
                    size="small"
                    onClick={() => setEditing({ mode: 'edit', view: v })}
                    aria-label={`Edit view ${v.name}`}
                  >
                    Edit…
                  </Button>
                ) : (
                  <span />
                )}
              </li>
            ))}
          </ul>
        ) : q.isPending ? (
          <p className="small muted">Loading saved views…</p>
        ) : (
          <p className="small muted">No saved views yet: set the filters above, then save them here.</p>
        )}
        {!readOnly ? (
          <Button size="small" onClick={() => setEditing({ mode: 'create', filter: { ...filters } })}>
            Save current filter as a view…
          </Button>
        ) : null}
      </div>
      {editing ? <ViewDialog editing={editing} canWrite={canWrite} onClose={() => setEditing(null)} /> : null}
    </details>
  )
}

function ViewDialog({ editing, canWrite, onClose }: { editing: Editing; canWrite: boolean; onClose: () => void }) {
  const qc = useQueryClient()
  const start = editing.mode === 'edit' ? editing.view : null
  const [name, setName] = useState(start?.name ?? '')
  const [shared, setShared] = useState(start?.shared ?? false)
  const [alertOn, setAlertOn] = useState(!!start?.alert)
  const [webhook, setWebhook] = useState(start?.alert?.webhook ?? '')
  const [threshold, setThreshold] = useState(String(start?.alert?.threshold ?? 1))
  const [enabled, setEnabled] = useState(start?.alert?.enabled ?? true)
  const [refusal, setRefusal] = useState<WriteRefusal | null>(null)
  const [confirmDelete, setConfirmDelete] = useState(false)
  const hintId = useId()
  const filter = editing.mode === 'edit' ? editing.view.filter : editing.filter
  const done = () => {
    void qc.invalidateQueries({ queryKey: viewKeys.all })
    onClose()
  }
  const save = useMutation({
    mutationFn: () => {
      const input: ViewInput = {
        name: name.trim(),
        filter,
        shared,
        alert: alertOn ? { webhook: webhook.trim(), threshold: Number(threshold), enabled } : null,
      }
      return editing.mode === 'edit'
        ? updateViewRequest(editing.view.id, { name: input.name, shared: input.shared, alert: input.alert })
        : createViewRequest(input)
    },
    onMutate: () => setRefusal(null),
    onSuccess: done,
    onError: (e) => setRefusal(refusalOf(e)),
  })
  const remove = useMutation({
    mutationFn: () => deleteViewRequest((editing as { view: SavedView }).view.id),
    onSuccess: done,
    onError: (e) => setRefusal(refusalOf(e)),
  })
  const trimmed = name.trim()
  const missing =
    trimmed === ''
      ? 'give it a name'
      : trimmed.length > NAME_MAX
        ? `shorten the name to ${NAME_MAX} characters`
        : alertOn && webhook.trim() === ''
          ? 'give the webhook URL'
          : null
  return (
    <Dialog
      title={editing.mode === 'edit' ? `Edit view ${start?.name}` : 'Save the current filter as a view'}
      onClose={onClose}
    >
      <div className="stack">
        <p className="small muted flush">Filter: {filterText(filter)}</p>
        <RefusalBanner refusal={refusal} />
        <label className="field">
          Name
          <input {...bindText(name, setName)} maxLength={NAME_MAX + 20} autoComplete="off" />
        </label>
        {canWrite ? (
          <>
            <label className="small">
              <input type="checkbox" checked={shared} onChange={(e) => setShared(e.target.checked)} /> Shared with
              everyone who uses this console
            </label>
            <label className="small">
              <input type="checkbox" checked={alertOn} onChange={(e) => setAlertOn(e.target.checked)} /> Alert a webhook
              when this view matches enough runs
            </label>
            {alertOn ? (
              <div className={styles.alert}>
                <label className="field">
                  Webhook URL (its host must be in LOOM_RUNS_WEBHOOK_HOSTS)
                  <input
                    {...bindText(webhook, setWebhook)}
                    inputMode="url"
                    placeholder="https://hooks.example.com/…"
                    autoComplete="off"
                  />
                </label>
                <label className="field">
                  Alert when at least this many runs match
                  <input {...bindText(threshold, setThreshold)} inputMode="numeric" type="number" min={1} />
                </label>
                <label className="small">
                  <input type="checkbox" checked={enabled} onChange={(e) => setEnabled(e.target.checked)} /> Enabled
                </label>
              </div>
            ) : null}
          </>
        ) : (
          <p className="small muted flush">Viewers keep private views; sharing and alerts need the operator role.</p>
        )}
        {start?.alert ? <Deliveries id={start.id} /> : null}
        <div className="row">
          {editing.mode === 'edit' ? (
            confirmDelete ? (
              <Button variant="danger" size="small" onClick={() => remove.mutate()} disabled={remove.isPending}>
                Delete “{start?.name}”
              </Button>
            ) : (
              <Button size="small" onClick={() => setConfirmDelete(true)}>
                Delete…
              </Button>
            )
          ) : null}
          <span className="spacer" />
          <span id={hintId} className="small muted">
            {missing ? `To save: ${missing}.` : ''}
          </span>
          <Button onClick={onClose}>Cancel</Button>
          <Button
            variant="primary"
            disabled={!!missing || save.isPending}
            aria-describedby={hintId}
            onClick={() => save.mutate()}
          >
            {save.isPending ? 'Saving…' : 'Save view'}
          </Button>
        </div>
      </div>
    </Dialog>
  )
}

function Deliveries({ id }: { id: string }) {
  const qc = useQueryClient()
  const q = useQuery(deliveriesQueryOptions(id))
  const test = useMutation({
    mutationFn: () => testViewRequest(id),
    onSettled: () => void qc.invalidateQueries({ queryKey: viewKeys.deliveries(id) }),
  })
  const rows = q.data?.deliveries ?? []
  return (
    <section className="stack gap-6" aria-label="Alert deliveries">
      <div className="row">
        <h3 className="small flush">Deliveries</h3>
        <span className="spacer" />
        <Button size="small" onClick={() => test.mutate()} disabled={test.isPending}>
          {test.isPending ? 'Sending…' : 'Send test'}
        </Button>
      </div>
      <span role="status" className="small">
        {test.data
          ? test.data.delivery.ok
            ? `Test delivered (HTTP ${test.data.delivery.status}).`
            : `Test not delivered: ${test.data.delivery.error}`
          : test.isError
            ? `Test failed: ${(test.error as Error).message}`
            : ''}
      </span>
      {rows.length ? (
        <ul className={`small ${styles.deliveries}`}>
          {rows.slice(0, 10).map((d) => (
            <li key={`${d.at}-${d.kind}`}>
              <span className="mono">{absoluteTime(d.at)}</span> {d.kind} ·{' '}
              {d.ok ? `delivered (${d.status})` : `failed${d.status ? ` (${d.status})` : ''}: ${d.error ?? ''}`} ·{' '}
              {d.count} runs
            </li>
          ))}
        </ul>
      ) : (
        <p className="small muted flush">No delivery yet.</p>
      )}
    </section>
  )
}
