/** The database side of `npm run mcp` (see scripts/mcp.ts): runs tool calls sent over IPC. */
import { runTool } from '../lib/mcp/server'
import { ensureReady } from '../lib/server/ready'

type Call = { id: number; name: string; args: Record<string, unknown>; user: string }

async function main() {
  console.log = (...args: unknown[]) => console.error(...args)
  await ensureReady()
  process.on('message', (m: Call) => {
    runTool({ name: `stdio:${m.user}`, role: 'viewer' }, m.name, m.args)
      .then((result) => process.send?.({ id: m.id, result }))
      .catch((err) => process.send?.({ id: m.id, error: err instanceof Error ? err.message : String(err) }))
  })
  // The parent is gone: so is the reason to hold the data directory.
  process.on('disconnect', () => process.exit(0))
  process.send?.({ id: 0, ready: true })
}

main().catch((err) => {
  process.send?.({ id: 0, error: err instanceof Error ? err.message : String(err) })
  process.exit(1)
})
