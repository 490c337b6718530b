/**
 * The OpenAPI 3.1 document of the HTTP API (`GET /api/openapi.json`), one operation per endpoint
 * definition in lib/endpoints: its path, role, summary and errors, the zod schemas its route
 * validates with (parameters and bodies) and its response shape, from which the server's and the
 * client's types are inferred; the schemas are turned into JSON Schema (draft 2020-12, which
 * OpenAPI 3.1 uses).
 */
import { z } from 'zod'
import { endpoints } from '../endpoints/api'
import type { AnyEndpoint } from '../endpoints/define'
import {
  batchBodySchema,
  clearBodySchema,
  editBodySchema,
  mcpMessageSchema,
  restoreBodySchema,
  undoBodySchema,
  viewBodySchema,
  viewPatchSchema,
} from '../endpoints/inputs'
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
  path_?: z.ZodType
  query?: z.ZodType
  body?: z.ZodType
  /** null: this document itself, or a download. */
  response: ResponseName | null
  errors: readonly number[]
  public?: boolean
  /** A download in this media type instead of JSON (its body a string). */
  media?: 'text/csv' | 'text/markdown'
}

/** The name the document gives an endpoint's response shape. */
function responseName(ep: AnyEndpoint): ResponseName | null {
  if (!ep.response) return null
  const found = (Object.keys(RESPONSES) as ResponseName[]).find((name) => RESPONSES[name] === ep.response)
  if (!found) throw new Error(`${ep.method} ${ep.path}: its response shape has no name in the document`)
  return found
}

/** An endpoint definition as the document's operation. */
function operationOf(ep: AnyEndpoint): Operation {
  return {
    method: ep.method.toLowerCase() as Operation['method'],
    path: ep.path,
    summary: ep.doc.summary,
    tag: ep.doc.tag,
    path_: ep.params,
    query: ep.query,
    body: ep.body,
    response: responseName(ep),
    errors: ep.doc.errors,
    ...(ep.role === 'public' ? { public: true } : {}),
    ...(ep.doc.media ? { media: ep.doc.media } : {}),
  }
}

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
  for (const op of Object.values(endpoints).map(operationOf)) (paths[op.path] ??= {})[op.method] = operation(op)
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
