/**
 * Alerts on saved views: every LOOM_RUNS_ALERT_INTERVAL_S seconds each enabled alert's view is
 * read like the runs list reads it; when it matches at least `threshold` runs and some were not in
 * its last delivery, the server POSTs a JSON payload to the view's webhook. Webhooks go only to
 * hosts in LOOM_RUNS_WEBHOOK_HOSTS (checked when saved and again when sent), redirects are not
 * followed, and a view is sent to at most once a minute, failed attempts backing off.
 */
import 'server-only'
import { batchFilterSchema } from '../batch/schema'
import { getConfig } from '../config'
import { links } from '../links'
import { listRuns } from '../queries/runs'
import { webhookRefusal } from './schema'
import { allViews, deliveriesOf, recordDelivery, type DeliveryRow } from './store'
import type { SavedView } from './types'

/** Runs read per view per check: a count at or past this reads as "this many or more". */
const MATCH_CAP = 200
const NEW_RUNS_SENT = 20
const MIN_GAP_MS = 60_000
const MAX_BACKOFF_MS = 30 * 60_000
const SEND_TIMEOUT_MS = 5_000

export type AlertPayload = {
  view: { id: string; name: string; href: string }
  count: number
  newRuns: { org: string; namespace: string; agent: string; runId: string; flags: string[]; href: string }[]
  at: string
  text: string
}

async function matching(view: SavedView, signal?: AbortSignal) {
  const filter = batchFilterSchema.parse(view.filter)
  const page = await listRuns({ filter, limit: MATCH_CAP, signal })
  return { runs: page.runs, more: page.nextCursor !== null }
}

const keyOf = (r: { org: string; namespace: string; agent: string; runId: string }) => links.runKey(r)

function payload(
  view: SavedView,
  runs: Awaited<ReturnType<typeof matching>>['runs'],
  more: boolean,
  fresh: typeof runs,
  now: Date,
): AlertPayload {
  const base = getConfig().publicUrl
  const href = `${base}/?view=${view.id}`
  const count = runs.length
  const countText = `${count}${more ? '+' : ''}`
  const first = fresh
    .slice(0, 3)
    .map((r) => r.runId)
    .join(', ')
  return {
    view: { id: view.id, name: view.name, href },
    count,
    newRuns: fresh.slice(0, NEW_RUNS_SENT).map((r) => ({
      org: r.org,
      namespace: r.namespace,
      agent: r.agent,
      runId: r.runId,
      flags: r.flags,
      href: `${base}${links.run(r)}`,
    })),
    at: now.toISOString(),
    text: `Loom Runs: ${countText} run${count === 1 ? '' : 's'} match "${view.name}" (${fresh.length} new${first ? `: ${first}${fresh.length > 3 ? ', …' : ''}` : ''}) ${href}`,
  }
}

/** POSTs the payload; never follows a redirect; the host is checked again against the current list. */
async function send(webhook: string, body: AlertPayload): Promise<{ status: number; ok: boolean; error?: string }> {
  const refused = webhookRefusal(webhook)
  if (refused) return { status: 0, ok: false, error: `not sent: the webhook ${refused}` }
  try {
    const res = await fetch(webhook, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'user-agent': 'loom-runs-alerts' },
      body: JSON.stringify(body),
      redirect: 'manual',
      signal: AbortSignal.timeout(SEND_TIMEOUT_MS),
    })
    await res.body?.cancel().catch(() => {})
    const ok = res.status >= 200 && res.status < 300
    return { status: res.status, ok, ...(ok ? {} : { error: `the webhook answered ${res.status}` }) }
  } catch (err) {
    const e = err as Error & { cause?: { code?: string } }
    return {
      status: 0,
      ok: false,
      error:
        e.name === 'TimeoutError'
          ? `no answer within ${SEND_TIMEOUT_MS / 1000} s`
          : `could not reach the webhook: ${e.cause?.code ?? e.message}`,
    }
  }
}

/** Sends the payload to the webhook and records the delivery (kept whether it went through or not). */
async function deliver(
  view: SavedView,
  kind: DeliveryRow['kind'],
  webhook: string,
  runs: Awaited<ReturnType<typeof matching>>['runs'],
  body: AlertPayload,
  now: Date,
): Promise<DeliveryRow> {
  const result = await send(webhook, body)
  const row: DeliveryRow = {
    at: now.toISOString(),
    kind,
    status: result.status,
    ok: result.ok,
    count: runs.length,
    runKeys: runs.map(keyOf),
    ...(result.error ? { error: result.error } : {}),
  }
  await recordDelivery(view.id, row)
  return row
}

/** When the next attempt for this view may go out: a minute after the last, longer after failures in a row. */
export function nextAttemptAt(history: DeliveryRow[]): number {
  const attempts = history.filter((d) => d.kind === 'alert')
  const last = attempts[0]
  if (!last) return 0
  let failures = 0
  for (const d of attempts) {
    if (d.ok) break
    failures++
  }
  const wait = failures === 0 ? MIN_GAP_MS : Math.min(MAX_BACKOFF_MS, MIN_GAP_MS * 2 ** (failures - 1))
  return Date.parse(last.at) + wait
}

/** One view's check: sends when due, over threshold and with runs not in the last delivery. */
export async function checkView(view: SavedView, now = new Date()): Promise<DeliveryRow | null> {
  const alert = view.alert
  if (!alert?.enabled) return null
  const history = await deliveriesOf(view.id, 20)
  if (now.getTime() < nextAttemptAt(history)) return null
  const { runs, more } = await matching(view)
  if (runs.length < alert.threshold) return null
  const lastOk = history.find((d) => d.kind === 'alert' && d.ok)
  const seen = new Set(lastOk?.runKeys ?? [])
  const fresh = runs.filter((r) => !seen.has(keyOf(r)))
  // A failed attempt is retried with the runs it carried, until one is delivered.
  if (fresh.length === 0) return null
  return deliver(view, 'alert', alert.webhook, runs, payload(view, runs, more, fresh, now), now)
}

/** "Send test": one delivery at once, of every run the view matches now, whatever the threshold. */
export async function sendTest(view: SavedView, now = new Date()): Promise<DeliveryRow> {
  if (!view.alert) throw new Error('no alert')
  const { runs, more } = await matching(view)
  return deliver(view, 'test', view.alert.webhook, runs, payload(view, runs, more, runs, now), now)
}

/** Every enabled alert, one after the other (the engine answers one statement at a time anyway). */
export async function checkAlerts(now = new Date()): Promise<number> {
  let sent = 0
  for (const v of await allViews()) {
    try {
      if (await checkView(v, now)) sent++
    } catch (err) {
      console.error(`[loom-runs] alert of view ${v.id}: ${err instanceof Error ? err.message : String(err)}`)
    }
  }
  return sent
}

const g = globalThis as typeof globalThis & { __loomRunsAlerts?: NodeJS.Timeout }

/** Checks alerts on a timer in this process (one timer per process; it does not keep the process alive). */
export function startAlerts(intervalS = getConfig().alertIntervalS): void {
  if (g.__loomRunsAlerts) return
  let running = false
  g.__loomRunsAlerts = setInterval(() => {
    if (running) return
    running = true
    checkAlerts()
      .catch((err) => console.error('[loom-runs] alerts:', err instanceof Error ? err.message : err))
      .finally(() => {
        running = false
      })
  }, intervalS * 1000)
  g.__loomRunsAlerts.unref()
}
