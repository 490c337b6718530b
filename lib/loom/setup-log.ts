import os from 'node:os'
import { classifyClickHouseError } from '../clickhouse/query'
import { insertRows } from './insert'
import { toChTime } from '../tables/time'
import { tableNames } from './tables'

/** Who ran a setup command: the operating-system user and host (a setup command has no console login). */
export function setupActor(): string {
  let user = 'unknown'
  try {
    user = os.userInfo().username
  } catch {
    // No user entry for this uid (a container): keep "unknown".
  }
  return `${user}@${os.hostname()}`
}

/**
 * Records a setup run as a "setup" event. Best effort: the setup itself has succeeded by now, so a
 * failure here is returned as a line to print, never thrown.
 */
export async function recordSetup(command: string, summary: string, at = new Date()): Promise<string | null> {
  try {
    await insertRows(tableNames().setupLog, [{ at: toChTime(at), actor: setupActor(), command, summary }])
    return null
  } catch (err) {
    return `could not record this setup run in ${tableNames().setupLog}: ${classifyClickHouseError(err).message}`
  }
}
