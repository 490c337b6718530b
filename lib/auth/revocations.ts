import 'server-only'
import { z } from 'zod'
import { selectRows } from '../clickhouse/query'
import { insertRows } from '../loom/insert'
import { sql, trusted } from '../clickhouse/sql'
import { toChTime, chTimeToIso } from '../tables/time'
import { getConfig } from '../config'
import { AppError } from '../errors'
import { tableNames } from '../loom/tables'
import { revokeSession, type Session } from './session'

/**
 * Logouts outlive the process: each is stored in the dashboard's `revoked_sessions` table and
 * read back at start and every half minute, so a copied cookie stays refused after a restart
 * and by every console process that shares the database. Where the table cannot be written
 * (read-only mode, a read-only ClickHouse user, a remote server not initialised) the logout
 * still holds in this process, and the answer says so.
 */
export async function storeRevocation(session: Session): Promise<'stored' | 'process-only'> {
  revokeSession(session)
  if (getConfig().readOnly) return 'process-only'
  try {
    await insertRows(tableNames().revokedSessions, [
      { session_id: session.id, expires_at: toChTime(new Date(session.expires)), revoked_at: toChTime(new Date()) },
    ])
    return 'stored'
  } catch (err) {
    console.warn('[loom-runs] logout remembered by this process only:', err instanceof Error ? err.message : err)
    return 'process-only'
  }
}

const rowSchema = z.object({ session_id: z.string(), until: z.string().transform(chTimeToIso) })

const g = globalThis as typeof globalThis & {
  __loomRunsRevocationTimer?: NodeJS.Timeout
  /** Whether this process has read the stored logouts once (a restart starts without them). */
  __loomRunsRevocationsLoaded?: { loaded: boolean; pending: Promise<number> | null }
}
const loadState = () => (g.__loomRunsRevocationsLoaded ??= { loaded: false, pending: null })

/** Reads the stored logouts that have not expired yet into this process. */
export async function loadRevocations(): Promise<number> {
  if (getConfig().users.length === 0) return 0
  try {
    const rows = await selectRows(
      sql`SELECT session_id, toString(max(expires_at)) AS until FROM ${trusted(tableNames().revokedSessions)}
       WHERE expires_at > now64(3) GROUP BY session_id`,
      rowSchema,
    )
    for (const r of rows) revokeSession({ id: r.session_id, expires: Date.parse(r.until) })
    loadState().loaded = true
    return rows.length
  } catch (err) {
    // No table (a remote server not initialised yet): logouts hold per process until it is created.
    if (err instanceof AppError && err.code === 'unavailable' && /missing/.test(err.message)) loadState().loaded = true
    return 0
  }
}

/**
 * Resolves true once this process has read the stored logouts (reading them now if it has not):
 * a session cookie is not believed before, so a cookie that was logged out stays refused from the
 * first request after a restart. False when they cannot be read (ClickHouse unavailable).
 */
export async function revocationsReady(): Promise<boolean> {
  const state = loadState()
  if (state.loaded) return true
  const pending = (state.pending ??= loadRevocations().finally(() => {
    state.pending = null
  }))
  await pending
  return state.loaded
}

/** Keeps this process's list current with logouts made by other console processes. */
export function followRevocations(everyMs = 30_000): void {
  if (g.__loomRunsRevocationTimer || getConfig().users.length === 0) return
  g.__loomRunsRevocationTimer = setInterval(() => void loadRevocations(), everyMs)
  g.__loomRunsRevocationTimer.unref()
}
