import 'server-only'
import { ConfigError, getConfig } from '../config'
import { dummyHash } from '../auth/passwords'
import { followRevocations } from '../auth/revocations'
import { installRequestGate } from '../server/gate'
import { ensureReady } from '../server/ready'
import { startDeriving } from '../derived/derive'

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1'])

/** Checks the configuration and starts preparing the database in the background. */
export async function startServer() {
  let config
  try {
    config = getConfig()
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(`[loom-runs] ${err.message}`)
      process.exit(1)
    }
    throw err
  }
  if (!LOOPBACK.has(config.host) && config.users.length === 0) {
    console.error(
      `[loom-runs] Refusing to listen on ${config.host}: no users are configured, so the console would be open to anyone who can reach it. Set HOST=127.0.0.1, or configure users with LOOM_RUNS_USERS.`,
    )
    process.exit(1)
  }
  // Every request passes the gate first: host allow-list, and loopback clients only without users.
  installRequestGate(getConfig)
  // Made now, so the first wrong name is not slower than a wrong password (timing would tell).
  if (config.users.length > 0) void dummyHash()
  if (config.users.length > 0 && !config.sessionSecret) {
    console.warn('[loom-runs] LOOM_RUNS_SESSION_SECRET is not set: logins last until the server restarts.')
  }
  console.log(
    `[loom-runs] ${config.mode === 'embedded' ? `embedded ClickHouse at ${config.dataDir}` : `remote ClickHouse at ${new URL(config.clickhouse.url!).host}`}${config.readOnly ? ' (read-only)' : ''}`,
  )
  ensureReady()
    .then(async () => {
      console.log('[loom-runs] database ready')
      followRevocations()
      // Derived data (run index, flags, facets, analytics) follows the agents' writes in batches.
      if (!config.readOnly) startDeriving(config.deriveIntervalMs)
      // Alerts on saved views: checked on a timer, sent only to the configured webhook hosts.
      if (!config.readOnly) {
        const { startAlerts } = await import('../views/alerts')
        startAlerts(config.alertIntervalS)
      }
      if (process.env.NODE_ENV === 'development' && config.demo) {
        const { startLiveDemo } = await import('../demo/live')
        startLiveDemo({})
      }
    })
    .catch((err) => console.error('[loom-runs] database not ready yet:', err instanceof Error ? err.message : err))
}
