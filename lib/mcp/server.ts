/**
 * The console's MCP server (Model Context Protocol): read-only tools over the same queries as the
 * HTTP API, for operators' own agents. Each tool's arguments are checked by the schemas of the
 * endpoint it mirrors (lib/endpoints/api.ts: the same fields, limits and messages naming the field),
 * each call runs within the caller's read budget like an API read, and nothing here writes.
 */
import 'server-only'
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import { z } from 'zod'
import { endpoints } from '../endpoints/api'
import { inputSchema } from '../endpoints/define'
import type { Principal } from '../auth/current'
import { describeDiff, diffContents } from '../diff'
import { AppError } from '../errors'
import { parseWith } from '../http/handler'
import { getBlockDetail } from '../queries/block-detail'
import { getRunDetail, requireRun } from '../queries/run-detail'
import { listRuns } from '../queries/runs'
import { runTimeline } from '../queries/timeline'
import { withinReadBudget } from '../server/read-budget'
import { RUN_FLAGS, RUN_STATUSES } from '../endpoints/vocabulary'

/** The input schemas of the endpoints the tools mirror. */
const RUN_PATH = inputSchema(endpoints.run, 'params')
const BLOCK_SELECTOR = inputSchema(endpoints.block, 'query')
const RUNS_QUERY = inputSchema(endpoints.runs, 'query')
const TIMELINE_QUERY = inputSchema(endpoints.timeline, 'query')

export const MCP_TOOLS = [
  'list_runs',
  'get_run',
  'explain_resume',
  'list_checkpoint_versions',
  'diff_versions',
  'get_timeline',
] as const

const text = (s: string) => z.string().describe(s)
const runShape = {
  org: text('the run’s org'),
  namespace: text('the run’s namespace'),
  agent: text('the run’s agent'),
  runId: text('the run_id'),
}
const identityShape = {
  userId: text('the writer identity’s user_id (default: empty)').optional(),
  sessionId: text('the writer identity’s session_id (default: empty)').optional(),
  blockKey: text('the block (default: checkpoint)').optional(),
}

/** Arguments in the form the HTTP route takes them (query-string text), checked by its schema. */
function asQuery(args: Record<string, unknown>): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {}
  for (const [k, v] of Object.entries(args)) {
    if (v === undefined || v === null || v === '') continue
    out[k] = Array.isArray(v) ? v.map(String) : String(v)
  }
  return out
}

const json = (value: unknown) => ({ content: [{ type: 'text' as const, text: JSON.stringify(value, null, 1) }] })

/** The block a tool reads: the run's checkpoint under its own identity unless the arguments name another. */
async function blockOf(args: Record<string, unknown>, signal?: AbortSignal) {
  const run = parseWith(RUN_PATH, args, 'arguments')
  const sel = parseWith(BLOCK_SELECTOR, asQuery({ userId: args.userId, sessionId: args.sessionId }), 'arguments')
  let { userId, sessionId } = sel
  if (args.userId === undefined && args.sessionId === undefined) {
    // No identity named: the one the run's checkpoint was written under.
    const cp = (await getRunDetail(run, signal)).run.checkpoint
    if (cp) ({ userId, sessionId } = cp)
  }
  const blockKey = typeof args.blockKey === 'string' && args.blockKey ? args.blockKey : 'checkpoint'
  const detail = await getBlockDetail({ ...run, userId, sessionId, blockKey }, signal)
  if (!detail.block && detail.versions.length === 0) await requireRun(run, signal)
  return { run, userId, sessionId, blockKey, detail }
}

export type ToolResult = { content: { type: 'text'; text: string }[]; isError?: boolean }
type ToolDef = {
  name: (typeof MCP_TOOLS)[number]
  description: string
  shape: z.ZodRawShape
  run: (args: Record<string, unknown>) => Promise<unknown>
}

/** The tools: name, description, argument shape (for the client) and what each reads. */
function toolDefs(): ToolDef[] {
  const defs: ToolDef[] = []
  const tool = <S extends z.ZodRawShape>(
    name: ToolDef['name'],
    description: string,
    shape: S,
    run: (args: z.infer<z.ZodObject<S>>) => Promise<unknown>,
  ) => {
    defs.push({ name, description, shape, run: run as ToolDef['run'] })
  }
  /** A tool over one block (see blockOf), with the run's and the identity's arguments and any of its own. */
  const blockTool = <S extends z.ZodRawShape>(
    name: ToolDef['name'],
    description: string,
    shape: S,
    read: (
      block: Awaited<ReturnType<typeof blockOf>>,
      args: z.infer<z.ZodObject<typeof runShape & typeof identityShape & S>>,
    ) => unknown,
  ) =>
    tool(name, description, { ...runShape, ...identityShape, ...shape }, async (args) =>
      read(await blockOf(args), args),
    )

  tool(
    'list_runs',
    'Runs, newest first, filtered like the console’s runs list (GET /api/runs): org, namespace, agent, status, q (goal or run id), from/to (ISO times), flag (runs carrying every named flag), limit (1-200, default 50) and cursor (nextCursor of the previous page).',
    {
      org: text('org').optional(),
      namespace: text('namespace').optional(),
      agent: text('agent').optional(),
      status: z.enum(RUN_STATUSES).optional(),
      q: text('goal or run id contains').optional(),
      from: text('ISO 8601: started at or after').optional(),
      to: text('ISO 8601: started at or before').optional(),
      flag: z.array(z.enum(RUN_FLAGS)).optional().describe('runs carrying every one of these flags'),
      limit: z.number().int().optional().describe('1-200, default 50'),
      cursor: text('nextCursor of the previous page').optional(),
    },
    async (args) => {
      const { cursor, limit, ...filter } = parseWith(RUNS_QUERY, asQuery(args), 'arguments')
      return listRuns({ filter, cursor, limit: limit ?? 50 })
    },
  )
  tool(
    'get_run',
    'One run: status, attempts, timings, cost, flags, its checkpoint and counts (GET /api/runs/{org}/{namespace}/{agent}/{runId}).',
    runShape,
    async (args) => getRunDetail(parseWith(RUN_PATH, args, 'arguments')),
  )
  blockTool(
    'explain_resume',
    'Why the run resumed where it did: what resume() returns now, from which version, every resume point with the units done, and the explanation the console shows.',
    {},
    ({ detail, ...block }) => {
      const r = detail.resume
      return {
        ...block,
        value: r.value,
        fromVersion: r.fromVersion,
        explanation: r.explanation,
        points: r.points,
        attemptsText: r.attemptsText,
        flags: detail.flags,
      }
    },
  )
  blockTool(
    'list_checkpoint_versions',
    'Every captured version of a block (default: the run’s checkpoint), newest first, with who wrote it and its size; contents are cut to 2,000 characters.',
    {},
    ({ detail, ...block }) => {
      const versions = (detail.history ?? detail.versions).map((v) => ({
        version: v.version,
        updatedAt: v.updatedAt,
        actor: v.actor,
        sourceTrace: v.sourceTrace,
        isDeleted: v.isDeleted,
        chars: v.chars,
        content: v.content.slice(0, 2000),
      }))
      return { ...block, source: detail.history ? 'history' : 'physical', versions }
    },
  )
  blockTool(
    'diff_versions',
    'What changed between two versions of a block (default: the run’s checkpoint): a one-line summary and the set, JSON or line diff.',
    { a: text('the earlier version'), b: text('the later version') },
    ({ run, blockKey, detail }, args) => {
      const all = detail.history ?? detail.versions
      const find = (field: 'a' | 'b') => {
        const v = all.find((x) => x.version === args[field])
        if (!v)
          throw new AppError('not_found', `${field}: version ${args[field]} is not a captured version of ${blockKey}`, {
            details: { field },
          })
        return v
      }
      const [a, b] = [find('a'), find('b')]
      const d = diffContents(a.isDeleted ? '' : a.content, b.isDeleted ? '' : b.content)
      return { run, blockKey, a: a.version, b: b.version, summary: describeDiff(d), diff: d }
    },
  )
  tool(
    'get_timeline',
    'Everything the run did in time order (working-memory writes, operator actions, turns, memories, searches, blobs) with its resume points; limit 1-50,000 events (default 2,000 here).',
    { ...runShape, limit: z.number().int().optional().describe('events, 1-50000; default 2000') },
    async (args) => {
      const run = parseWith(RUN_PATH, args, 'arguments')
      const { limit } = parseWith(TIMELINE_QUERY, asQuery({ limit: args.limit }), 'arguments')
      const t = await runTimeline(run, limit ?? 2_000)
      if (t.events.length === 0) await requireRun(run)
      return t
    },
  )
  return defs
}

/** Runs one tool in this process, within the caller's read budget; failures become tool errors naming the field. */
export async function runTool(
  who: Principal,
  name: string,
  args: Record<string, unknown>,
  signal?: AbortSignal,
): Promise<ToolResult> {
  const def = toolDefs().find((d) => d.name === name)
  try {
    if (!def) throw new AppError('not_found', `No tool ${name}`)
    return json(await withinReadBudget(who.name, signal, () => def.run(args)))
  } catch (err) {
    const e = err instanceof AppError ? err : new AppError('internal', err instanceof Error ? err.message : String(err))
    const field = typeof e.details?.field === 'string' ? ` (field: ${e.details.field})` : ''
    return { isError: true, content: [{ type: 'text', text: `${e.code}: ${e.message}${field}` }] }
  }
}

/**
 * An MCP server for one caller. Tool calls run in this process unless `call` runs them elsewhere
 * (the stdio command runs them in a child whose standard input is not the protocol's).
 */
export function buildMcpServer(
  who: Principal,
  signal?: AbortSignal,
  call: (name: string, args: Record<string, unknown>) => Promise<ToolResult> = (n, a) => runTool(who, n, a, signal),
): McpServer {
  const server = new McpServer({ name: 'loom-runs', version: '1.0.0' }, { capabilities: { tools: {} } })
  for (const d of toolDefs()) {
    server.registerTool(
      d.name,
      { description: d.description, inputSchema: d.shape, annotations: { readOnlyHint: true, openWorldHint: false } },
      ((args: Record<string, unknown>) => call(d.name, args ?? {})) as never,
    )
  }
  return server
}
