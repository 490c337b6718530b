/**
 * The OpenAPI 3.1 document of the HTTP API (`GET /api/openapi.json`). Request parameters and
 * bodies come from the zod schemas the routes validate with (lib/api/schemas.ts), response bodies
 * from the shapes in lib/endpoints, from which the server's and the client's types are inferred;
 * both are turned into JSON Schema (draft 2020-12, which OpenAPI 3.1 uses).
 */
import { z } from 'zod'
import {
  analyticsQuerySchema,
  cohortsQuerySchema,
  blockPathSchema,
  blockSelectorSchema,
  replayQuerySchema,
  blocksQuerySchema,
  changesQuerySchema,
  clearBodySchema,
  editBodySchema,
  facetsQuerySchema,
  runsCsvQuerySchema,
  auditQuerySchema,
  loginBodySchema,
  restoreBodySchema,
  runPathSchema,
  runsQuerySchema,
  schemaQuerySchema,
  timelineQuerySchema,
  eventsQuerySchema,
  compareQuerySchema,
  mcpMessageSchema,
} from '../api/schemas'
import { batchBodySchema, batchesQuerySchema, batchIdParamsSchema, undoBodySchema } from '../batch/schema'
import { viewBodySchema, viewIdParamsSchema, viewPatchSchema } from '../views/schema'
import * as blocks from '../endpoints/blocks'
import * as runs from '../endpoints/runs'
import * as story from '../endpoints/story'
import * as consoleShapes from '../endpoints/console'
import * as batchShapes from '../endpoints/batches'
import * as viewShapes from '../endpoints/views'
import * as schemaReportShape from '../endpoints/schema-report'
import { EXAMPLES } from './examples'

type JsonSchema = Record<string, unknown> & { properties?: Record<string, JsonSchema>; required?: string[] }

/** Drops `additionalProperties: false` everywhere: the shapes are closed, the published contract is open. */
function opened(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(opened)
  if (!node || typeof node !== 'object') return node
  const out: Record<string, unknown> = {}
  for (const [k, v] of Object.entries(node)) if (!(k === 'additionalProperties' && v === false)) out[k] = opened(v)
  return out
}

/**
 * Input side for request schemas (what a client sends, before transforms); output side for
 * responses. `closed` keeps response objects closed (tests check bodies against that, so a field a
 * query adds without declaring it fails); the document itself lets objects gain fields.
 */
function jsonSchema(schema: z.ZodType, io: 'input' | 'output', closed = false): JsonSchema {
  const out = z.toJSONSchema(schema, { io, target: 'draft-2020-12', unrepresentable: 'any' }) as JsonSchema
  delete out.$schema
  return closed ? out : (opened(out) as JsonSchema)
}

const RESPONSES = {
  RunsPage: runs.runsPage,
  RunDetail: runs.runDetail,
  Blocks: blocks.blocksAnswer,
  BlockDetail: blocks.blockDetail,
  WriteResult: blocks.writeResult,
  Timeline: story.timeline,
  Conversations: story.conversationsResponse,
  Memories: story.memoriesResponse,
  Searches: story.searchesResponse,
  Blobs: story.blobsResponse,
  Audit: story.auditResponse,
  ConsoleAudit: story.consoleAuditPage,
  Export: story.exportDocument,
  Analytics: runs.runsAnalytics,
  Changes: runs.runChanges,
  Batch: batchShapes.batchResponse,
  Batches: batchShapes.batchesResponse,
  Cohorts: runs.cohortsResponse,
  Events: runs.eventsResponse,
  Compare: runs.compareResponse,
  Views: viewShapes.viewsResponse,
  View: viewShapes.viewResponse,
  ViewDeleted: viewShapes.viewDeletedResponse,
  Deliveries: viewShapes.deliveriesResponse,
  TestDelivery: viewShapes.testDeliveryResponse,
  McpResponse: consoleShapes.mcpResponse,
  BatchDetail: batchShapes.batchDetail,
  Undo: batchShapes.undoResponse,
  Facets: runs.facetsResponse,
  Health: consoleShapes.healthResponse,
  SchemaReport: schemaReportShape.schemaReport,
  Me: consoleShapes.me,
  Login: consoleShapes.login,
  Logout: consoleShapes.logout,
  Error: blocks.errorBody,
  Conflict: blocks.conflictBody,
  Block: blocks.block,
  Replay: blocks.replayPreview,
} as const
export type ResponseName = keyof typeof RESPONSES

/** What each error status means; every operation lists the ones it can answer. */
const STATUS_TEXT: Record<number, string> = {
  400: 'Invalid input; `error.field` names the field',
  401: 'Login required (only when users are configured)',
  403: 'Not allowed: a client off loopback without users, a viewer writing, read-only mode, or a cross-origin write',
  404: 'Unknown run or block',
  405: 'Method not served by this endpoint',
  409: 'Version conflict (`current` is the block now) or a run still writing (`run_active`: send `force`)',
  413: 'Content over char_limit, or a body over the size limit',
  421: 'The Host header is not a name this console answers to',
  429: 'Too many failed logins or Basic credentials; see Retry-After',
  503: 'ClickHouse unavailable',
  504: 'Query over its time budget',
}

type Operation = {
  method: 'get' | 'put' | 'delete' | 'post'
  path: string
  summary: string
  tag: string
  path_?: z.ZodObject
  query?: z.ZodType
  body?: z.ZodType
  /** null: this document itself. */
  response: ResponseName | null
  errors: number[]
  public?: boolean
  /** A download in this media type instead of JSON (its body a string). */
  media?: 'text/csv' | 'text/markdown'
}

const RUN = '/api/runs/{org}/{namespace}/{agent}/{runId}'
const BLOCK = `${RUN}/blocks/{blockKey}`
const READ = [400, 401, 403, 421, 429, 503, 504]
const RUN_READ = [...READ, 404]
const WRITE = [...RUN_READ, 409, 413]

const runRead = (sub: string, summary: string, response: ResponseName | null, query?: z.ZodType): Operation => ({
  method: 'get',
  path: `${RUN}${sub}`,
  summary,
  tag: 'runs',
  path_: runPathSchema,
  query,
  response,
  errors: RUN_READ,
})

export const OPERATIONS: Operation[] = [
  {
    method: 'get',
    path: '/api/health',
    summary: 'Mode, ClickHouse version, tables found, setup state',
    tag: 'console',
    response: 'Health',
    errors: READ,
  },
  {
    method: 'get',
    path: '/api/schema',
    summary: "The schema doctor's report (cached; refresh=1 reads again)",
    tag: 'console',
    query: schemaQuerySchema,
    response: 'SchemaReport',
    errors: READ,
  },
  {
    method: 'get',
    path: '/api/openapi.json',
    summary: 'This document',
    tag: 'console',
    response: null,
    errors: [421],
    public: true,
  },
  {
    method: 'get',
    path: '/api/auth/me',
    summary: 'Who the caller is and what they may do',
    tag: 'auth',
    response: 'Me',
    errors: [421, 503],
    public: true,
  },
  {
    method: 'post',
    path: '/api/auth/login',
    summary: 'Log in: sets the session cookie',
    tag: 'auth',
    body: loginBodySchema,
    response: 'Login',
    errors: [400, 401, 403, 421, 429, 503],
    public: true,
  },
  {
    method: 'post',
    path: '/api/auth/logout',
    summary: 'End the session on the server',
    tag: 'auth',
    response: 'Logout',
    errors: [403, 421, 503],
    public: true,
  },
  {
    method: 'get',
    path: '/api/runs',
    summary: 'Runs, newest first, in keyset pages',
    tag: 'runs',
    query: runsQuerySchema,
    response: 'RunsPage',
    errors: READ,
  },
  {
    method: 'get',
    path: '/api/runs/analytics',
    summary: "Summary charts of the runs page, over the list's filters",
    tag: 'runs',
    query: analyticsQuerySchema,
    response: 'Analytics',
    errors: READ,
  },
  {
    method: 'get',
    path: '/api/runs/cohorts',
    summary:
      'Troubled runs (any problem flag) under the list filters, grouped by agent, status and flags, largest first; each links to its filtered list',
    tag: 'runs',
    query: cohortsQuerySchema,
    response: 'Cohorts',
    errors: READ,
  },
  {
    method: 'get',
    path: '/api/events',
    summary: 'What operators and setup changed, newest first: single writes, batches, undos and setup runs (db:init)',
    tag: 'runs',
    query: eventsQuerySchema,
    response: 'Events',
    errors: READ,
  },
  {
    method: 'get',
    path: '/api/compare',
    summary:
      "Two runs side by side: checkpoint versions over time, resume points, counts, flags and current checkpoints; without b, the same agent's last succeeded run that started before a",
    tag: 'runs',
    query: compareQuerySchema,
    response: 'Compare',
    errors: [...READ, 404],
  },
  {
    method: 'get',
    path: '/api/views',
    summary: "Saved views: the caller's own and the shared ones",
    tag: 'views',
    response: 'Views',
    errors: READ,
  },
  {
    method: 'post',
    path: '/api/views',
    summary:
      'Save a filter of the runs list (shared views and alerts need the operator role; webhooks only to LOOM_RUNS_WEBHOOK_HOSTS)',
    tag: 'views',
    body: viewBodySchema,
    response: 'View',
    errors: [400, 401, 403, 421, 429, 503],
  },
  {
    method: 'get',
    path: '/api/views/{id}',
    summary: "One saved view (another user's private view is a 404)",
    tag: 'views',
    path_: viewIdParamsSchema,
    response: 'View',
    errors: [...READ, 404],
  },
  {
    method: 'put',
    path: '/api/views/{id}',
    summary: 'Rename, refilter, share or set the alert of a view: its owner while private, an operator once shared',
    tag: 'views',
    path_: viewIdParamsSchema,
    body: viewPatchSchema,
    response: 'View',
    errors: [400, 401, 403, 404, 421, 429, 503],
  },
  {
    method: 'delete',
    path: '/api/views/{id}',
    summary: 'Delete a view',
    tag: 'views',
    path_: viewIdParamsSchema,
    response: 'ViewDeleted',
    errors: [400, 401, 403, 404, 421, 429, 503],
  },
  {
    method: 'get',
    path: '/api/views/{id}/deliveries',
    summary: "The view's alert deliveries and test sends, newest first",
    tag: 'views',
    path_: viewIdParamsSchema,
    response: 'Deliveries',
    errors: [...READ, 404],
  },
  {
    method: 'post',
    path: '/api/views/{id}/test',
    summary: "Send the view's alert payload to its webhook at once",
    tag: 'views',
    path_: viewIdParamsSchema,
    response: 'TestDelivery',
    errors: [400, 401, 403, 404, 421, 429, 503],
  },
  {
    method: 'post',
    path: '/api/mcp',
    summary:
      'The Model Context Protocol over Streamable HTTP (stateless, JSON answers): read-only tools list_runs, get_run, explain_resume, list_checkpoint_versions, diff_versions, get_timeline, for any signed-in viewer',
    tag: 'console',
    body: mcpMessageSchema,
    response: 'McpResponse',
    errors: [400, 401, 403, 413, 421, 429, 503],
  },
  {
    method: 'get',
    path: '/api/mcp',
    summary: 'Not served: the endpoint is stateless (no server-to-client stream)',
    tag: 'console',
    response: null,
    errors: [401, 403, 405, 421],
  },
  {
    method: 'delete',
    path: '/api/mcp',
    summary: 'Not served: there is no session to end',
    tag: 'console',
    response: null,
    errors: [401, 403, 405, 421],
  },
  {
    method: 'get',
    path: '/api/audit',
    summary:
      'Every operator write and batch the console recorded, newest first, in keyset pages; filter by operator, run, batch, action and time',
    tag: 'runs',
    query: auditQuerySchema,
    response: 'ConsoleAudit',
    errors: READ,
  },
  {
    method: 'get',
    path: '/api/runs/csv',
    summary:
      "The runs the list's filters select as CSV, newest first, up to limit (default 10,000); X-Loom-Runs-Truncated says whether more matched",
    tag: 'runs',
    query: runsCsvQuerySchema,
    response: null,
    media: 'text/csv',
    errors: READ,
  },
  {
    method: 'get',
    path: '/api/runs/facets',
    summary: 'Suggestions for the org, namespace or agent filter: values starting with prefix, most runs first',
    tag: 'runs',
    query: facetsQuerySchema,
    response: 'Facets',
    errors: READ,
  },
  {
    method: 'get',
    path: '/api/runs/changes',
    summary: 'Runs written since a watermark',
    tag: 'runs',
    query: changesQuerySchema,
    response: 'Changes',
    errors: READ,
  },
  {
    method: 'post',
    path: '/api/batches',
    summary:
      'Batch clear or restore of one block across the runs a filter matches: a dry run (preview and token), then the writes',
    tag: 'runs',
    body: batchBodySchema,
    response: 'Batch',
    errors: [400, 401, 403, 409, 413, 421, 429, 503, 504],
  },
  {
    method: 'get',
    path: '/api/batches',
    summary: 'Recent batches and undos, newest first, with counts and what undid each',
    tag: 'runs',
    query: batchesQuerySchema,
    response: 'Batches',
    errors: READ,
  },
  {
    method: 'get',
    path: '/api/batches/{batchId}',
    summary: 'One kept batch with its items: the versions each read and wrote, and a hash of the content written',
    tag: 'runs',
    path_: batchIdParamsSchema,
    response: 'BatchDetail',
    errors: [...READ, 404],
  },
  {
    method: 'post',
    path: '/api/batches/{batchId}/undo',
    summary:
      'Take a batch back: a dry run (preview and token), then each block the batch wrote and nobody moved since gets its pre-batch content as a new version',
    tag: 'runs',
    path_: batchIdParamsSchema,
    body: undoBodySchema,
    response: 'Undo',
    errors: [400, 401, 403, 404, 409, 421, 429, 503, 504],
  },
  runRead('', 'The run, with counts', 'RunDetail'),
  runRead('/blocks', 'Every block of the run, latest version each', 'Blocks', blocksQuerySchema),
  {
    method: 'get',
    path: BLOCK,
    summary: 'The block, its physical versions, captured history, resume explanation, flags',
    tag: 'checkpoint',
    path_: blockPathSchema,
    query: blockSelectorSchema,
    response: 'BlockDetail',
    errors: RUN_READ,
  },
  {
    method: 'put',
    path: BLOCK,
    summary: 'Edit: write new content as the next version',
    tag: 'checkpoint',
    path_: blockPathSchema,
    query: blockSelectorSchema,
    body: editBodySchema,
    response: 'WriteResult',
    errors: WRITE,
  },
  {
    method: 'delete',
    path: BLOCK,
    summary: 'Clear: write a tombstone',
    tag: 'checkpoint',
    path_: blockPathSchema,
    query: blockSelectorSchema,
    body: clearBodySchema,
    response: 'WriteResult',
    errors: WRITE,
  },
  {
    method: 'get',
    path: `${BLOCK}/replay`,
    summary:
      'Replay preview: what going back to toVersion (omitted: a clear) makes the agent redo, and what the run wrote after it',
    tag: 'checkpoint',
    path_: blockPathSchema,
    query: replayQuerySchema,
    response: 'Replay',
    errors: RUN_READ,
  },
  {
    method: 'post',
    path: `${BLOCK}/restore`,
    summary: 'Restore: put an earlier version back as the next version',
    tag: 'checkpoint',
    path_: blockPathSchema,
    query: blockSelectorSchema,
    body: restoreBodySchema,
    response: 'WriteResult',
    errors: WRITE,
  },
  runRead(
    '/timeline',
    'Everything the run did, in time order, with its resume points',
    'Timeline',
    timelineQuerySchema,
  ),
  runRead('/conversations', 'Transcripts bound to the run', 'Conversations'),
  runRead('/memories', 'Memories the run wrote, and those it used', 'Memories'),
  runRead('/searches', 'Logged searches with their hits', 'Searches'),
  runRead('/blobs', 'Context offloads of the run', 'Blobs'),
  runRead('/audit', 'Operator actions on the run', 'Audit'),
  runRead('/export', 'One JSON document with all of the above (a download)', 'Export'),
  {
    ...runRead(
      '/incident.md',
      "The run's incident summary as markdown: identity, status and attempts, flags and what each means for this run, why it resumed where it did, the last resume's checkpoint diff, operator actions, links back",
      null,
    ),
    media: 'text/markdown',
  },
]

function parameters(op: Operation) {
  const out: Record<string, unknown>[] = []
  const add = (schema: z.ZodType | undefined, where: 'path' | 'query') => {
    if (!schema) return
    const js = jsonSchema(schema, 'input')
    const required = new Set(js.required ?? [])
    for (const [name, prop] of Object.entries(js.properties ?? {})) {
      const example = EXAMPLES.parameters[name as keyof typeof EXAMPLES.parameters]
      out.push({
        name,
        in: where,
        required: where === 'path' || required.has(name),
        schema: prop,
        ...(example === undefined ? {} : { example }),
      })
    }
  }
  add(op.path_, 'path')
  add(op.query, 'query')
  return out
}

const ref = (name: ResponseName) => ({ $ref: `#/components/schemas/${name}` })

/** Which example of `EXAMPLES.bodies` shows each request body (any other body: the login's). */
const BODY_EXAMPLES: [z.ZodType, keyof typeof EXAMPLES.bodies][] = [
  [editBodySchema, 'edit'],
  [clearBodySchema, 'clear'],
  [restoreBodySchema, 'restore'],
  [batchBodySchema, 'batch'],
  [undoBodySchema, 'undo'],
  [viewBodySchema, 'view'],
  [viewPatchSchema, 'viewPatch'],
  [mcpMessageSchema, 'mcp'],
]

function operation(op: Operation) {
  const okSchema = op.response ? ref(op.response) : { type: 'object', description: 'An OpenAPI 3.1 document' }
  const example = op.response ? EXAMPLES.responses[op.response as keyof typeof EXAMPLES.responses] : undefined
  const responses: Record<string, unknown> = {
    200: op.media
      ? {
          description: op.media === 'text/csv' ? 'OK: a download' : 'OK: markdown text',
          content: {
            [op.media]: {
              schema: {
                type: 'string',
                description:
                  op.media === 'text/csv'
                    ? 'A header row, then one row per run (RFC 4180)'
                    : 'Markdown, ready to paste into a ticket',
              },
            },
          },
        }
      : { description: 'OK', content: { 'application/json': { schema: okSchema, ...(example ? { example } : {}) } } },
  }
  // A route that takes no input cannot answer 400.
  const takesInput = !!(op.path_ || op.query || op.body)
  for (const status of op.errors.filter((s) => s !== 400 || takesInput)) {
    const conflict = status === 409 && op.method !== 'get'
    const errorExample = EXAMPLES.errors[status as keyof typeof EXAMPLES.errors]
    responses[status] = {
      description: STATUS_TEXT[status],
      content: {
        'application/json': {
          schema: ref(conflict ? 'Conflict' : 'Error'),
          ...(errorExample ? { example: errorExample } : {}),
        },
      },
    }
  }
  const bodyName = BODY_EXAMPLES.find(([schema]) => schema === op.body)?.[1] ?? 'login'
  return {
    operationId: `${op.method}${op.path.replace(/\{(\w+)\}/g, '_$1').replace(/[^A-Za-z0-9_]+/g, '_')}`,
    summary: op.summary,
    tags: [op.tag],
    ...(op.public ? { security: [{}] } : {}),
    parameters: parameters(op),
    ...(op.body
      ? {
          requestBody: {
            required: true,
            content: {
              'application/json': { schema: jsonSchema(op.body, 'input'), example: EXAMPLES.bodies[bodyName] },
            },
          },
        }
      : {}),
    responses,
  }
}

let cached: Record<string, unknown> | null = null

/** The response schemas with their objects closed, under the names the document gives them. */
export function closedResponseSchemas(): Record<string, JsonSchema> {
  return Object.fromEntries(
    Object.entries(RESPONSES).map(([name, schema]) => [name, jsonSchema(schema, 'output', true)]),
  )
}

export function openApiDocument(): Record<string, unknown> {
  if (cached) return cached
  const paths: Record<string, Record<string, unknown>> = {}
  for (const op of OPERATIONS) (paths[op.path] ??= {})[op.method] = operation(op)
  cached = {
    openapi: '3.1.0',
    jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
    info: {
      title: 'Loom Runs HTTP API',
      version: '1',
      description:
        'JSON, camelCase fields; versions as decimal strings (UInt64 does not fit a JSON number), times as ISO 8601 UTC. ' +
        'Run path segments are URL-encoded. Errors are `{"error": {"code", "message", "field"?}}`. ' +
        'Writes need the `operator` role when users are configured and are refused cross-origin. ' +
        'Objects may gain fields; none are renamed.',
    },
    tags: [{ name: 'runs' }, { name: 'checkpoint' }, { name: 'console' }, { name: 'auth' }, { name: 'views' }],
    // Login is needed only when users are configured (`{}`: no credentials otherwise).
    security: [{}, { session: [] }, { basic: [] }],
    paths,
    components: {
      schemas: Object.fromEntries(
        Object.entries(RESPONSES).map(([name, schema]) => [name, jsonSchema(schema, 'output')]),
      ),
      securitySchemes: {
        session: {
          type: 'apiKey',
          in: 'cookie',
          name: 'loom_runs_session',
          description: 'Set by POST /api/auth/login (named __Host-loom_runs_session off loopback)',
        },
        basic: { type: 'http', scheme: 'basic', description: 'For scripts' },
      },
    },
  }
  return cached
}
