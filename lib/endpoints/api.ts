/**
 * Every endpoint of the HTTP API, one definition each (see define.ts). The route files serve
 * these, the browser's queries and writes are made from them, and the OpenAPI document lists
 * them in this order.
 */
import type { ZodType } from 'zod'
import { endpoint, type ApiTag, type Endpoint, type Method } from './define'
import { authKeys, healthKeys, runKeys, schemaKeys, viewKeys } from './keys'
import { batchShapes, blocks, consoleShapes, input, runs, schemaReport, story, viewShapes } from '#endpoint-schemas'
import { searchOf } from './url'

type RunRef = { org: string; namespace: string; agent: string; runId: string }

const RUN = '/api/runs/{org}/{namespace}/{agent}/{runId}'
const BLOCK = `${RUN}/blocks/{blockKey}` as const
/** The error statuses of a read, of a read of one run or thing, and of a write to a block. */
const READ = [400, 401, 403, 421, 429, 503, 504]
const RUN_READ = [...READ, 404]
const WRITE = [...RUN_READ, 409, 413]
/** The writes to the console's own data (saved views, their tests). */
const VIEW_WRITE = [400, 401, 403, 404, 421, 429, 503]

/** Drops one field of a query before it becomes a key (the key names the rest). */
function without<T extends object, K extends keyof T>(q: T | undefined, field: K): Omit<T, K> {
  return Object.fromEntries(Object.entries(q ?? {}).filter(([k]) => k !== field)) as Omit<T, K>
}

/** A read of one run's rows: `GET /api/runs/{org}/{namespace}/{agent}/{runId}{sub}`. */
function runRead<R extends ZodType | undefined>(
  sub: string,
  summary: string,
  response: R,
  key?: (run: RunRef) => readonly unknown[],
  media?: 'text/markdown',
) {
  return endpoint({
    method: 'GET',
    path: `${RUN}${sub}`,
    role: 'viewer',
    params: input.runPathSchema,
    response,
    doc: { summary, tag: 'runs', errors: RUN_READ, ...(media ? { media } : {}) },
    client: key ? { key: (i) => key(i.params) } : undefined,
  })
}

/**
 * A read under the runs tag that takes a query string: `GET {path}` for any viewer; `more` holds
 * its repeatable keys, its download type and, for a read the browser caches, its query key.
 */
function queryRead<Q extends ZodType, R extends ZodType | undefined>(
  path: `/api/${string}`,
  query: Q,
  response: R,
  summary: string,
  more: Pick<Endpoint<undefined, Q, undefined, R, 'viewer'>, 'repeatable' | 'client'> & { media?: 'text/csv' } = {},
) {
  const { media, ...rest } = more
  return endpoint({
    method: 'GET',
    path,
    role: 'viewer',
    query,
    ...rest,
    response,
    doc: { summary, tag: 'runs', errors: READ, ...(media ? { media } : {}) },
  })
}

/** A read of one run's or one block's rows that takes a query string; its query key is made from both. */
function scopedRead<P extends ZodType, Q extends ZodType, R extends ZodType>(
  path: `${typeof RUN}${string}`,
  params: P,
  query: Q,
  response: R,
  doc: { summary: string; tag: ApiTag },
  key: NonNullable<Endpoint<P, Q, undefined, R, 'viewer'>['client']>['key'],
) {
  return endpoint({
    method: 'GET',
    path,
    role: 'viewer',
    params,
    query,
    response,
    doc: { ...doc, errors: RUN_READ },
    client: { key },
  })
}

/** An operator's write to one block (edit, clear, restore): answers the block as written. */
function blockWrite<B extends ZodType>(method: Method, path: `${typeof BLOCK}${string}`, body: B, summary: string) {
  return endpoint({
    method,
    path,
    role: 'operator',
    params: input.blockPathSchema,
    query: input.blockSelectorSchema,
    body,
    response: blocks.writeResult,
    doc: { summary, tag: 'checkpoint', errors: WRITE },
  })
}

export const endpoints = {
  health: endpoint({
    method: 'GET',
    path: '/api/health',
    role: 'viewer',
    crossSite: true,
    response: consoleShapes.healthResponse,
    doc: { summary: 'Mode, ClickHouse version, tables found, setup state', tag: 'console', errors: READ },
    client: { key: () => healthKeys.all, staleTime: 60_000 },
  }),
  schema: endpoint({
    method: 'GET',
    path: '/api/schema',
    role: 'viewer',
    query: input.schemaQuerySchema,
    response: schemaReport,
    doc: { summary: "The schema doctor's report (cached; refresh=1 reads again)", tag: 'console', errors: READ },
    client: { key: () => schemaKeys.report(), staleTime: 30_000 },
  }),
  openapi: endpoint({
    method: 'GET',
    path: '/api/openapi.json',
    role: 'public',
    database: false,
    crossSite: true,
    doc: { summary: 'This document', tag: 'console', errors: [421] },
  }),
  me: endpoint({
    method: 'GET',
    path: '/api/auth/me',
    role: 'public',
    response: consoleShapes.me,
    doc: { summary: 'Who the caller is and what they may do', tag: 'auth', errors: [421, 503] },
    client: { key: () => authKeys.me(), staleTime: 60_000 },
  }),
  login: endpoint({
    method: 'POST',
    path: '/api/auth/login',
    role: 'public',
    sameOrigin: true,
    body: input.loginBodySchema,
    response: consoleShapes.login,
    doc: { summary: 'Log in: sets the session cookie', tag: 'auth', errors: [400, 401, 403, 421, 429, 503] },
  }),
  logout: endpoint({
    method: 'POST',
    path: '/api/auth/logout',
    role: 'public',
    sameOrigin: true,
    response: consoleShapes.logout,
    doc: { summary: 'End the session on the server', tag: 'auth', errors: [403, 421, 503] },
  }),
  runs: queryRead('/api/runs', input.runsQuerySchema, runs.runsPage, 'Runs, newest first, in keyset pages', {
    // The live poll refetches a list as soon as a run in it changes, so a page rendered on the
    // server stays good while a slow device hydrates it: no second fetch then.
    client: { key: (i) => runKeys.list(i.query ?? {}), staleTime: 30_000 },
  }),
  analytics: queryRead(
    '/api/runs/analytics',
    input.analyticsQuerySchema,
    runs.runsAnalytics,
    "Summary charts of the runs page, over the list's filters",
    { client: { key: (i) => runKeys.analytics(i.query ?? {}), staleTime: 30_000 } },
  ),
  cohorts: queryRead(
    '/api/runs/cohorts',
    input.cohortsQuerySchema,
    runs.cohortsResponse,
    'Troubled runs (any problem flag) under the list filters, grouped by agent, status and flags, largest first; each links to its filtered list',
  ),
  events: queryRead(
    '/api/events',
    input.eventsQuerySchema,
    runs.eventsResponse,
    'What operators and setup changed, newest first: single writes, batches, undos and setup runs (db:init)',
    { repeatable: [], client: { key: (i) => runKeys.events(i.query ?? {}), staleTime: 30_000 } },
  ),
  compare: endpoint({
    method: 'GET',
    path: '/api/compare',
    role: 'viewer',
    query: input.compareQuerySchema,
    repeatable: [],
    response: runs.compareResponse,
    doc: {
      summary:
        "Two runs side by side: checkpoint versions over time, resume points, counts, flags and current checkpoints; without b, the same agent's last succeeded run that started before a",
      tag: 'runs',
      errors: [...READ, 404],
    },
    client: { key: (i) => runKeys.compare(i.query?.a ?? '', i.query?.b ?? null), staleTime: 30_000 },
  }),
  views: endpoint({
    method: 'GET',
    path: '/api/views',
    role: 'viewer',
    response: viewShapes.viewsResponse,
    doc: { summary: "Saved views: the caller's own and the shared ones", tag: 'views', errors: READ },
    client: { key: () => viewKeys.all },
  }),
  createView: endpoint({
    method: 'POST',
    path: '/api/views',
    role: 'signed-in-write',
    body: input.viewBodySchema,
    response: viewShapes.viewResponse,
    doc: {
      summary:
        'Save a filter of the runs list (shared views and alerts need the operator role; webhooks only to LOOM_RUNS_WEBHOOK_HOSTS)',
      tag: 'views',
      errors: [400, 401, 403, 421, 429, 503],
    },
  }),
  view: endpoint({
    method: 'GET',
    path: '/api/views/{id}',
    role: 'viewer',
    params: input.viewIdParamsSchema,
    response: viewShapes.viewResponse,
    doc: { summary: "One saved view (another user's private view is a 404)", tag: 'views', errors: [...READ, 404] },
  }),
  updateView: endpoint({
    method: 'PUT',
    path: '/api/views/{id}',
    role: 'signed-in-write',
    params: input.viewIdParamsSchema,
    body: input.viewPatchSchema,
    response: viewShapes.viewResponse,
    doc: {
      summary: 'Rename, refilter, share or set the alert of a view: its owner while private, an operator once shared',
      tag: 'views',
      errors: VIEW_WRITE,
    },
  }),
  deleteView: endpoint({
    method: 'DELETE',
    path: '/api/views/{id}',
    role: 'signed-in-write',
    params: input.viewIdParamsSchema,
    response: viewShapes.viewDeletedResponse,
    doc: { summary: 'Delete a view', tag: 'views', errors: VIEW_WRITE },
  }),
  viewDeliveries: endpoint({
    method: 'GET',
    path: '/api/views/{id}/deliveries',
    role: 'viewer',
    params: input.viewIdParamsSchema,
    response: viewShapes.deliveriesResponse,
    doc: { summary: "The view's alert deliveries and test sends, newest first", tag: 'views', errors: [...READ, 404] },
    client: { key: (i) => viewKeys.deliveries(i.params.id) },
  }),
  testView: endpoint({
    method: 'POST',
    path: '/api/views/{id}/test',
    role: 'operator',
    params: input.viewIdParamsSchema,
    response: viewShapes.testDeliveryResponse,
    doc: { summary: "Send the view's alert payload to its webhook at once", tag: 'views', errors: VIEW_WRITE },
  }),
  mcp: endpoint({
    method: 'POST',
    path: '/api/mcp',
    role: 'viewer',
    // A page of another origin may not drive it (the API's own rule); MCP clients send no Origin.
    sameOrigin: true,
    body: input.mcpMessageSchema,
    response: consoleShapes.mcpResponse,
    doc: {
      summary:
        'The Model Context Protocol over Streamable HTTP (stateless, JSON answers): read-only tools list_runs, get_run, explain_resume, list_checkpoint_versions, diff_versions, get_timeline, for any signed-in viewer',
      tag: 'console',
      errors: [400, 401, 403, 413, 421, 429, 503],
    },
  }),
  mcpStream: endpoint({
    method: 'GET',
    path: '/api/mcp',
    role: 'viewer',
    doc: {
      summary: 'Not served: the endpoint is stateless (no server-to-client stream)',
      tag: 'console',
      errors: [401, 403, 405, 421],
    },
  }),
  mcpSession: endpoint({
    method: 'DELETE',
    path: '/api/mcp',
    role: 'viewer',
    doc: { summary: 'Not served: there is no session to end', tag: 'console', errors: [401, 403, 405, 421] },
  }),
  audit: queryRead(
    '/api/audit',
    input.auditQuerySchema,
    story.consoleAuditPage,
    'Every operator write and batch the console recorded, newest first, in keyset pages; filter by operator, run, batch, action and time',
    // The key names the query string as sent, cursor included (each page is its own answer).
    { client: { key: (i) => runKeys.consoleAudit(searchOf(i.query).toString()) } },
  ),
  runsCsv: queryRead(
    '/api/runs/csv',
    input.runsCsvQuerySchema,
    undefined,
    "The runs the list's filters select as CSV, newest first, up to limit (default 10,000); X-Loom-Runs-Truncated says whether more matched",
    { media: 'text/csv' },
  ),
  facets: queryRead(
    '/api/runs/facets',
    input.facetsQuerySchema,
    runs.facetsResponse,
    'Suggestions for the org, namespace or agent filter: values starting with prefix, most runs first',
    {
      repeatable: [],
      // The key names what was typed; the number of suggestions is the client's constant.
      client: { key: (i) => runKeys.facets(without(i.query, 'limit')), staleTime: 60_000 },
    },
  ),
  changes: queryRead('/api/runs/changes', input.changesQuerySchema, runs.runChanges, 'Runs written since a watermark', {
    // One key per filter set: the watermark (`since`) travels in the query's own cached data.
    client: { key: (i) => runKeys.changes(without(i.query, 'since')), staleTime: 0 },
  }),
  batch: endpoint({
    method: 'POST',
    path: '/api/batches',
    role: 'operator',
    body: input.batchBodySchema,
    response: batchShapes.batchResponse,
    doc: {
      summary:
        'Batch clear or restore of one block across the runs a filter matches: a dry run (preview and token), then the writes',
      tag: 'runs',
      errors: [400, 401, 403, 409, 413, 421, 429, 503, 504],
    },
  }),
  batches: queryRead(
    '/api/batches',
    input.batchesQuerySchema,
    batchShapes.batchesResponse,
    'Recent batches and undos, newest first, with counts and what undid each',
    {
      repeatable: [],
      client: { key: (i) => [...runKeys.batches(), i.query?.limit == null ? undefined : Number(i.query.limit)] },
    },
  ),
  keptBatch: endpoint({
    method: 'GET',
    path: '/api/batches/{batchId}',
    role: 'viewer',
    params: input.batchIdParamsSchema,
    response: batchShapes.batchDetail,
    doc: {
      summary: 'One kept batch with its items: the versions each read and wrote, and a hash of the content written',
      tag: 'runs',
      errors: [...READ, 404],
    },
  }),
  undoBatch: endpoint({
    method: 'POST',
    path: '/api/batches/{batchId}/undo',
    role: 'operator',
    params: input.batchIdParamsSchema,
    body: input.undoBodySchema,
    response: batchShapes.undoResponse,
    doc: {
      summary:
        'Take a batch back: a dry run (preview and token), then each block the batch wrote and nobody moved since gets its pre-batch content as a new version',
      tag: 'runs',
      errors: [400, 401, 403, 404, 409, 421, 429, 503, 504],
    },
  }),
  run: runRead('', 'The run, with counts', runs.runDetail, runKeys.detail),
  blocks: scopedRead(
    `${RUN}/blocks`,
    input.runPathSchema,
    input.blocksQuerySchema,
    blocks.blocksAnswer,
    { summary: 'Every block of the run, latest version each', tag: 'runs' },
    // The content-free list sits under the blocks' key, so every invalidation of the blocks reaches it.
    (i) => (i.query?.content === 'none' ? runKeys.blockSummaries(i.params) : runKeys.blocks(i.params)),
  ),
  block: scopedRead(
    BLOCK,
    input.blockPathSchema,
    input.blockSelectorSchema,
    blocks.blockDetail,
    { summary: 'The block, its physical versions, captured history, resume explanation, flags', tag: 'checkpoint' },
    (i) => runKeys.block(i.params, i.params.blockKey, i.query?.userId ?? '', i.query?.sessionId ?? ''),
  ),
  editBlock: blockWrite('PUT', BLOCK, input.editBodySchema, 'Edit: write new content as the next version'),
  clearBlock: blockWrite('DELETE', BLOCK, input.clearBodySchema, 'Clear: write a tombstone'),
  replay: scopedRead(
    `${BLOCK}/replay`,
    input.blockPathSchema,
    input.replayQuerySchema,
    blocks.replayPreview,
    {
      summary:
        'Replay preview: what going back to toVersion (omitted: a clear) makes the agent redo, and what the run wrote after it',
      tag: 'checkpoint',
    },
    // Under the block's key: a write to the block invalidates its previews too.
    (i) =>
      runKeys.replay(
        i.params,
        i.params.blockKey,
        i.query?.userId ?? '',
        i.query?.sessionId ?? '',
        i.query?.toVersion == null ? null : String(i.query.toVersion),
      ),
  ),
  restoreBlock: blockWrite(
    'POST',
    `${BLOCK}/restore`,
    input.restoreBodySchema,
    'Restore: put an earlier version back as the next version',
  ),
  timeline: scopedRead(
    `${RUN}/timeline`,
    input.runPathSchema,
    input.timelineQuerySchema,
    story.timeline,
    { summary: 'Everything the run did, in time order, with its resume points', tag: 'runs' },
    (i) => runKeys.timeline(i.params, i.query?.limit == null ? undefined : Number(i.query.limit)),
  ),
  conversations: runRead(
    '/conversations',
    'Transcripts bound to the run',
    story.conversationsResponse,
    runKeys.conversations,
  ),
  memories: runRead('/memories', 'Memories the run wrote, and those it used', story.memoriesResponse, runKeys.memories),
  searches: runRead('/searches', 'Logged searches with their hits', story.searchesResponse, runKeys.searches),
  blobs: runRead('/blobs', 'Context offloads of the run', story.blobsResponse, runKeys.blobs),
  runAudit: runRead('/audit', 'Operator actions on the run', story.auditResponse, runKeys.audit),
  export: runRead('/export', 'One JSON document with all of the above (a download)', story.exportDocument),
  incident: runRead(
    '/incident.md',
    "The run's incident summary as markdown: identity, status and attempts, flags and what each means for this run, why it resumed where it did, the last resume's checkpoint diff, operator actions, links back",
    undefined,
    undefined,
    'text/markdown',
  ),
}
