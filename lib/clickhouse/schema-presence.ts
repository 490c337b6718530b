import { z } from 'zod'
import { selectRows } from './query'
import { sql } from './sql'

const TTL_MS = 60_000
const g = globalThis as typeof globalThis & { __loomRunsTables?: { at: number; names: Set<string> } }

/** Which tables exist (cached for a minute): lets views say "not installed" instead of failing. */
export async function existingTables(signal?: AbortSignal): Promise<Set<string>> {
  const cached = g.__loomRunsTables
  if (cached && Date.now() - cached.at < TTL_MS) return cached.names
  const rows = await selectRows(
    sql`SELECT concat(database, '.', name) AS name FROM system.tables
     WHERE database NOT IN ('system', 'INFORMATION_SCHEMA', 'information_schema')`,
    z.object({ name: z.string() }),
    { signal },
  )
  const names = new Set(rows.map((r) => r.name))
  g.__loomRunsTables = { at: Date.now(), names }
  return names
}

/** Forgets the cached list (after an install created or dropped tables). */
export function forgetExistingTables(): void {
  g.__loomRunsTables = undefined
}

export async function tableExists(name: string, signal?: AbortSignal): Promise<boolean> {
  return (await existingTables(signal)).has(name)
}
