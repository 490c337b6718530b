/**
 * `npm run mcp`: the console's MCP tools over stdio, for an MCP client that starts a local process.
 * It reads the database the console is configured for (CLICKHOUSE_URL, or the embedded engine at
 * LOOM_RUNS_DATA_DIR: an embedded data directory serves one process, so stop the console first or
 * use its Streamable HTTP endpoint, POST /api/mcp). Read-only; logs go to stderr.
 *
 * The tools run in a child process: the embedded engine treats a process's standard input as data
 * for its statements, and here standard input carries the protocol.
 */
import { fork, type ChildProcess } from 'node:child_process'
import os from 'node:os'
import path from 'node:path'
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js'
import { buildMcpServer, type ToolResult } from '../lib/mcp/server'

type Reply = { id: number; result?: ToolResult; error?: string; ready?: true }

function startWorker(): Promise<ChildProcess> {
  const child = fork(path.join(__dirname, 'mcp-worker.ts'), [], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    execArgv: ['--conditions=react-server', '--import', 'tsx'],
  })
  return new Promise((resolve, reject) => {
    child.once('message', (m: Reply) =>
      m.ready ? resolve(child) : reject(new Error(m.error ?? 'the worker did not start')),
    )
    child.once('exit', (code) => reject(new Error(`the worker exited (${code}) before it was ready`)))
  })
}

async function main() {
  // stdout carries the protocol: everything else goes to stderr.
  console.log = (...args: unknown[]) => console.error(...args)
  const worker = await startWorker()
  let next = 0
  const pending = new Map<number, (r: ToolResult) => void>()
  worker.on('message', (m: Reply) => {
    const done = pending.get(m.id)
    pending.delete(m.id)
    done?.(m.result ?? { isError: true, content: [{ type: 'text', text: `internal: ${m.error ?? 'no answer'}` }] })
  })
  worker.on('exit', (code) => {
    console.error(`[loom-runs] mcp: the database process exited (${code})`)
    process.exit(1)
  })
  let user = 'local'
  try {
    user = os.userInfo().username
  } catch {
    // No user entry for this uid: keep "local".
  }
  const call = (name: string, args: Record<string, unknown>) =>
    new Promise<ToolResult>((resolve) => {
      const id = ++next
      pending.set(id, resolve)
      worker.send({ id, name, args, user })
    })
  const server = buildMcpServer({ name: `stdio:${user}`, role: 'viewer' }, undefined, call)
  const transport = new StdioServerTransport()
  transport.onclose = () => worker.kill()
  await server.connect(transport)
  process.stdin.on('end', () => {
    worker.kill()
    process.exit(0)
  })
  console.error(
    '[loom-runs] MCP server on stdio: list_runs, get_run, explain_resume, list_checkpoint_versions, diff_versions, get_timeline',
  )
}

main().catch((err) => {
  console.error(`[loom-runs] mcp: ${err instanceof Error ? err.message : String(err)}`)
  process.exit(1)
})
