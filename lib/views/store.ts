import 'server-only'
import { randomUUID } from 'node:crypto'
import { z } from 'zod'
import type { Principal } from '../auth/current'
import { selectRows } from '../clickhouse/query'
import { insertRows } from '../loom/insert'
import { param, sql, trusted } from '../clickhouse/sql'
import { chTimeToIso, toChTime } from '../tables/time'
import { AppError, notFound } from '../errors'
import { tableNames } from '../loom/tables'
import { tableExists } from '../clickhouse/schema-presence'
import type { ViewBody, ViewPatch } from './schema'
import type { AlertDelivery, SavedView } from './types'

const rowSchema = z.object({
  id: z.string(),
  owner: z.string(),
  name: z.string(),
  filter: z.string(),
  shared: z.coerce.number(),
  alert: z.string(),
  created_at: z.string().transform(chTimeToIso),
  updated_at: z.string().transform(chTimeToIso),
})

function toView(r: z.infer<typeof rowSchema>): SavedView {
  return {
    id: r.id,
    name: r.name,
    filter: JSON.parse(r.filter) as Record<string, unknown>,
    shared: r.shared === 1,
    owner: r.owner,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    alert: r.alert ? (JSON.parse(r.alert) as SavedView['alert']) : null,
  }
}

/** The filter as kept: times as ISO text, nothing undefined. */
export function keptFilter(f: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(f)
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => [k, v instanceof Date ? v.toISOString() : v]),
  )
}

async function requireTable(signal?: AbortSignal) {
  if (!(await tableExists(tableNames().savedViews, signal))) {
    throw new AppError(
      'unavailable',
      `The saved views table ${tableNames().savedViews} is missing: run \`npm run db:init\` (it creates it)`,
    )
  }
}

/** Every live view, read whole (a handful of rows per user). */
export async function allViews(signal?: AbortSignal): Promise<SavedView[]> {
  if (!(await tableExists(tableNames().savedViews, signal))) return []
  const rows = await selectRows(
    sql`SELECT id, owner, name, filter, shared, alert, toString(created_at) AS created_at, toString(updated_at) AS updated_at
      FROM ${trusted(`${tableNames().savedViews} FINAL`)} WHERE deleted = 0 ORDER BY lower(name), id`,
    rowSchema,
    { signal },
  )
  return rows.map(toView)
}

const visibleTo = (v: SavedView, who: Principal) => v.shared || v.owner === who.name

/** The views `who` may see: their own and the shared ones. */
export async function listViews(who: Principal, signal?: AbortSignal): Promise<SavedView[]> {
  return (await allViews(signal)).filter((v) => visibleTo(v, who))
}

/** One view `who` may see; another user's private view is a 404, as if it did not exist. */
export async function getView(id: string, who: Principal, signal?: AbortSignal): Promise<SavedView> {
  const v = (await allViews(signal)).find((x) => x.id === id)
  if (!v || !visibleTo(v, who)) throw notFound(`No saved view ${id}`)
  return v
}

/** Shared views and alerts are for operators; a viewer keeps private views. */
function requireRoleFor(next: { shared: boolean; alert: unknown }, who: Principal) {
  if (who.role === 'operator') return
  if (next.shared)
    throw new AppError('forbidden', `User ${who.name} is a viewer: sharing a view needs the operator role`, {
      details: { field: 'shared' },
    })
  if (next.alert)
    throw new AppError('forbidden', `User ${who.name} is a viewer: alerts need the operator role`, {
      details: { field: 'alert' },
    })
}

async function write(v: SavedView, deleted = false) {
  await insertRows(tableNames().savedViews, [
    {
      id: v.id,
      owner: v.owner,
      name: v.name,
      filter: JSON.stringify(v.filter),
      shared: v.shared ? 1 : 0,
      alert: v.alert ? JSON.stringify(v.alert) : '',
      created_at: toChTime(v.createdAt),
      updated_at: toChTime(v.updatedAt),
      deleted: deleted ? 1 : 0,
    },
  ])
}

/** A time strictly after `previous`, so the newer row always wins the ReplacingMergeTree. */
const after = (previous: string) => new Date(Math.max(Date.now(), Date.parse(previous) + 1)).toISOString()

export async function createView(body: ViewBody, who: Principal, signal?: AbortSignal): Promise<SavedView> {
  await requireTable(signal)
  requireRoleFor({ shared: body.shared, alert: body.alert }, who)
  const now = new Date().toISOString()
  const v: SavedView = {
    id: randomUUID(),
    name: body.name,
    filter: keptFilter(body.filter),
    shared: body.shared,
    owner: who.name,
    createdAt: now,
    updatedAt: now,
    alert: body.alert ?? null,
  }
  await write(v)
  return v
}

/** Who may change a view: its owner while private; any operator once shared. */
function requireEditable(v: SavedView, who: Principal) {
  if (v.shared ? who.role === 'operator' : v.owner === who.name) return
  throw new AppError(
    'forbidden',
    v.shared
      ? `User ${who.name} is a viewer: changing a shared view needs the operator role`
      : `Only ${v.owner} may change this private view`,
  )
}

export async function updateView(
  id: string,
  patch: ViewPatch,
  who: Principal,
  signal?: AbortSignal,
): Promise<SavedView> {
  await requireTable(signal)
  const v = await getView(id, who, signal)
  requireEditable(v, who)
  const next: SavedView = {
    ...v,
    ...(patch.name !== undefined ? { name: patch.name } : {}),
    ...(patch.filter !== undefined ? { filter: keptFilter(patch.filter) } : {}),
    ...(patch.shared !== undefined ? { shared: patch.shared } : {}),
    ...(patch.alert !== undefined ? { alert: patch.alert } : {}),
    updatedAt: after(v.updatedAt),
  }
  // Only what changes needs the role: a viewer may rename their private view, not share it or alert on it.
  requireRoleFor({ shared: next.shared && !v.shared, alert: patch.alert ? patch.alert : null }, who)
  await write(next)
  return next
}

export async function deleteView(id: string, who: Principal, signal?: AbortSignal): Promise<{ deleted: string }> {
  await requireTable(signal)
  const v = await getView(id, who, signal)
  requireEditable(v, who)
  await write({ ...v, updatedAt: after(v.updatedAt) }, true)
  return { deleted: id }
}

const deliverySchema = z.object({
  at: z.string().transform(chTimeToIso),
  kind: z.enum(['alert', 'test']),
  status: z.coerce.number(),
  ok: z.coerce.number(),
  count: z.coerce.number(),
  run_keys: z.array(z.string()),
  error: z.string(),
})

export type DeliveryRow = AlertDelivery & { runKeys: string[] }

/** A view's deliveries, newest first (at most `limit`). */
export async function deliveriesOf(viewId: string, limit: number, signal?: AbortSignal): Promise<DeliveryRow[]> {
  if (!(await tableExists(tableNames().alertDeliveries, signal))) return []
  const rows = await selectRows(
    sql`SELECT toString(at) AS at, kind, status, ok, count, run_keys, error FROM ${trusted(tableNames().alertDeliveries)}
      WHERE view_id = ${param('view', 'String', viewId)} ORDER BY at DESC LIMIT ${param('limit', 'UInt32', limit)}`,
    deliverySchema,
    { signal },
  )
  return rows.map((r) => ({
    at: r.at,
    kind: r.kind,
    status: r.status,
    ok: r.ok === 1,
    count: r.count,
    runKeys: r.run_keys,
    ...(r.error ? { error: r.error } : {}),
  }))
}

export async function recordDelivery(viewId: string, d: DeliveryRow): Promise<void> {
  await insertRows(tableNames().alertDeliveries, [
    {
      view_id: viewId,
      at: toChTime(d.at),
      kind: d.kind,
      status: d.status,
      ok: d.ok ? 1 : 0,
      count: d.count,
      run_keys: d.runKeys,
      error: d.error ?? '',
    },
  ])
}
