/**
 * The input side of the HTTP API: path parameters, query strings and JSON bodies, as the routes
 * validate them (a 400 names the field). Pure: no configuration, no server module; a check that
 * needs the configuration (a webhook's host) is made by the route that takes the value.
 */
import { z } from 'zod'
import { decodeAuditCursor, decodeCursor } from './cursor'
import { isRunFlag, OPERATOR_ACTIONS, RUN_FLAGS, RUN_STATUSES } from './vocabulary'

/** A part of a run's or block's key: text of 1 to 1024 characters; `typeMessage` when it is no text. */
const keyPart = (field: string, typeMessage: string) =>
  z
    .string({ message: typeMessage })
    .min(1, `${field} must not be empty`)
    .max(1024, `${field} is longer than 1024 characters`)

const segment = (name: string) => keyPart(name, `${name} is required`)

/** The four parts that name a run, each checked by `part`. */
const runKeyShape = <S extends z.ZodType>(part: (name: 'org' | 'namespace' | 'agent' | 'runId') => S) => ({
  org: part('org'),
  namespace: part('namespace'),
  agent: part('agent'),
  runId: part('runId'),
})

/** An object that refuses fields it does not name, with the error every route gives for it. */
const strictBody = <S extends z.ZodRawShape>(shape: S) =>
  z.strictObject(shape, { message: 'body has a field this route does not take' })
const strictQuery = <S extends z.ZodRawShape>(shape: S) =>
  z.strictObject(shape, { message: 'query has a parameter this route does not take' })

export const runPathSchema = z.object(runKeyShape(segment))
export type RunPath = z.infer<typeof runPathSchema>

export const blockPathSchema = runPathSchema.extend({ blockKey: segment('blockKey') })

/** An ISO 8601 date or date-time, as a Date; `text` is the string schema it starts from (its type message). */
const isoDate = (field: string, text = z.string()) =>
  text
    .refine((v) => /^\d{4}-\d{2}-\d{2}([T ][\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/.test(v) && !Number.isNaN(Date.parse(v)), {
      message: `${field} must be an ISO 8601 date or date-time`,
    })
    .transform((v) => new Date(v))

const optionalText = (field: string, max = 256) =>
  z.string().max(max, `${field} is longer than ${max} characters`).optional()

/** A query-string integer within bounds; the messages name the field. */
const wholeNumberParam = (field: string, min: number, max: number) =>
  z
    .string()
    .regex(/^\d+$/, `${field} must be a whole number from ${min} to ${max}`)
    .transform(Number)
    .pipe(z.number().int().min(min, `${field} must be at least ${min}`).max(max, `${field} must be at most ${max}`))

/** The runs list's filters: `GET /api/runs` (with paging), `GET /api/runs/analytics` and `GET /api/runs/changes`. */
const runFilterFields = {
  org: optionalText('org'),
  namespace: optionalText('namespace'),
  agent: optionalText('agent'),
  status: z.enum(RUN_STATUSES, { message: `status must be one of ${RUN_STATUSES.join(', ')}` }).optional(),
  q: optionalText('q', 200),
  from: isoDate('from').optional(),
  to: isoDate('to').optional(),
  /** Repeatable: the runs must carry every named flag. */
  flag: z
    .union([z.string(), z.array(z.string())])
    .transform((v) => (Array.isArray(v) ? v : [v]))
    .pipe(
      z
        .array(z.string())
        .max(RUN_FLAGS.length, `flag is repeated more than ${RUN_FLAGS.length} times`)
        // Checked as a whole, so the error names the field (flag), not one of its values (flag.1).
        .refine((v) => v.every(isRunFlag), { message: `flag must be one of ${RUN_FLAGS.join(', ')}` })
        .transform((v) => [...new Set(v.filter(isRunFlag))]),
    )
    .optional(),
}
/** A keyset cursor this server issued, decoded (`decode` returns null for anything else). */
function cursorParam<C>(decode: (text: string) => C | null) {
  return z.string().transform((v, ctx) => {
    const c = decode(v)
    if (!c) {
      ctx.addIssue({ code: 'custom', message: 'cursor is not a cursor issued by this server' })
      return z.NEVER
    }
    return c
  })
}
/** Refuses a time range whose `from` is after its `to` (the error names `from`). */
const fromNotAfterTo = <T extends z.ZodType<{ from?: Date; to?: Date }>>(schema: T) =>
  schema.refine((v) => !v.from || !v.to || v.from <= v.to, { message: 'from must not be after to', path: ['from'] })

export const runsQuerySchema = fromNotAfterTo(
  z.object({
    ...runFilterFields,
    limit: wholeNumberParam('limit', 1, 200).optional(),
    cursor: cursorParam(decodeCursor).optional(),
  }),
)
export type RunsQuery = z.infer<typeof runsQuerySchema>

/** The runs list's filters, as CSV: `limit` caps the rows (default 10,000). */
export const runsCsvQuerySchema = fromNotAfterTo(
  z.object({ ...runFilterFields, limit: wholeNumberParam('limit', 1, 50_000).optional() }),
)

export const blockSelectorSchema = z.object({
  userId: z.string().max(1024, 'userId is longer than 1024 characters').default(''),
  sessionId: z.string().max(1024, 'sessionId is longer than 1024 characters').default(''),
})

const UINT64_MAX = 18446744073709551615n

/** A UInt64 version as a decimal string (a JSON number is accepted when it is a safe integer). */
export const versionInput = (field: string) =>
  z.union([z.string(), z.number()], { message: `${field} must be a decimal UInt64 string` }).transform((v, ctx) => {
    const text = typeof v === 'number' ? (Number.isSafeInteger(v) && v >= 0 ? String(v) : '') : v
    if (!/^\d{1,20}$/.test(text) || BigInt(text) > UINT64_MAX) {
      ctx.addIssue({ code: 'custom', message: `${field} must be a decimal UInt64 string such as "42"` })
      return z.NEVER
    }
    return BigInt(text).toString()
  })

/** Replay preview: the block's selector, and the version to go back to (omitted: a clear). */
export const replayQuerySchema = blockSelectorSchema.extend({ toVersion: versionInput('toVersion').optional() })

const reason = z
  .string({ message: 'reason is required' })
  .trim()
  .min(1, 'reason must not be empty')
  .max(2000, 'reason is longer than 2000 characters')

const force = z.boolean({ message: 'force must be true or false' }).optional()

export const editBodySchema = strictBody({
  content: z.string({ message: 'content must be a string' }).max(1_000_000, 'content is too long'),
  expectedVersion: versionInput('expectedVersion'),
  reason,
  force,
})

export const clearBodySchema = strictBody({ expectedVersion: versionInput('expectedVersion'), reason, force })

export const restoreBodySchema = strictBody({
  version: versionInput('version'),
  expectedVersion: versionInput('expectedVersion'),
  reason,
  force,
})

export const timelineQuerySchema = z.object({
  limit: wholeNumberParam('limit', 1, 50_000).optional(),
})

/** `GET R/blocks`: `content=none` leaves every block's content out (a picker needs names, versions and sizes only). */
export const blocksQuerySchema = z.object({
  content: z
    .enum(['full', 'none'], { error: 'content must be full or none' })
    .optional()
    .describe('full (default): each block with its content; none: the same list without content'),
})

export const analyticsQuerySchema = fromNotAfterTo(z.object(runFilterFields))
export type AnalyticsQuery = z.infer<typeof analyticsQuerySchema>

/** `GET /api/runs/cohorts`: the runs filters, and how many cohorts to return (largest first). */
export const cohortsQuerySchema = fromNotAfterTo(
  z.object({
    ...runFilterFields,
    limit: wholeNumberParam('limit', 1, 500)
      .optional()
      .describe('cohorts returned, largest first (default 50, at most 500)'),
  }),
)

export const changesQuerySchema = fromNotAfterTo(z.object({ ...runFilterFields, since: isoDate('since').optional() }))
export type ChangesQuery = z.infer<typeof changesQuerySchema>

export const schemaQuerySchema = z.strictObject({
  refresh: z.enum(['0', '1'], { message: 'refresh must be 0 or 1' }).optional(),
})

export const loginBodySchema = z.strictObject({
  name: z.string({ message: 'name is required' }).min(1, 'name is required').max(64, 'name is too long'),
  password: z
    .string({ message: 'password is required' })
    .min(1, 'password is required')
    .max(1024, 'password is too long'),
})

export const FACET_FIELDS = ['org', 'namespace', 'agent'] as const

/** `GET /api/runs/facets`: suggestions for one identity field, narrowed by the others. */
export const facetsQuerySchema = z.object({
  field: z.enum(FACET_FIELDS, { message: `field is required: one of ${FACET_FIELDS.join(', ')}` }),
  prefix: optionalText('prefix'),
  limit: wholeNumberParam('limit', 1, 50).optional(),
  org: optionalText('org'),
  namespace: optionalText('namespace'),
  agent: optionalText('agent'),
})
export type FacetsQuerySchema = z.infer<typeof facetsQuerySchema>

/** The console-wide audit page's filters (GET /api/audit). */
export const auditQuerySchema = fromNotAfterTo(
  z.object({
    operator: optionalText('operator'),
    ...runKeyShape((name) => optionalText(name, 1024)),
    batchId: optionalText('batchId'),
    action: z.enum(OPERATOR_ACTIONS, { message: `action must be one of ${OPERATOR_ACTIONS.join(', ')}` }).optional(),
    from: isoDate('from').optional(),
    to: isoDate('to').optional(),
    limit: wholeNumberParam('limit', 1, 200).optional(),
    cursor: cursorParam(decodeAuditCursor).optional(),
  }),
)

/** GET /api/events: what operators and setup changed, newest first. */
export const eventsQuerySchema = fromNotAfterTo(
  strictQuery({
    from: isoDate('from').optional(),
    to: isoDate('to').optional(),
    org: optionalText('org', 1024),
    namespace: optionalText('namespace', 1024),
    agent: optionalText('agent', 1024),
    limit: wholeNumberParam('limit', 1, 1000).optional(),
  }),
)

/** A run named in one query value: `org/namespace/agent/runId`, each segment URL-encoded. */
const runKeyParam = (field: string) =>
  z
    .string({ message: `${field} is required: org/namespace/agent/runId` })
    .max(4200, `${field} is too long`)
    .transform((v, ctx) => {
      const parts = v.split('/')
      const decoded = parts.map((p) => {
        try {
          return decodeURIComponent(p)
        } catch {
          return null
        }
      })
      if (parts.length !== 4 || decoded.some((p) => !p)) {
        ctx.addIssue({
          code: 'custom',
          message: `${field} must be org/namespace/agent/runId, each segment URL-encoded and not empty`,
        })
        return z.NEVER
      }
      const [org, namespace, agent, runId] = decoded as string[]
      return { org, namespace, agent, runId }
    })

/** GET /api/compare: two runs, or one and the same agent's last succeeded run before it. */
export const compareQuerySchema = strictQuery({ a: runKeyParam('a'), b: runKeyParam('b').optional() })

/** `POST /api/mcp`: a JSON-RPC message or a batch of them; the MCP SDK checks each message itself. */
export const mcpMessageSchema = z.union(
  [z.record(z.string(), z.unknown()), z.array(z.record(z.string(), z.unknown()))],
  { message: 'body must be a JSON-RPC message' },
)

/** Most runs one batch may touch; a filter matching more is refused with the count. */
export const BATCH_MAX_RUNS = 1000

const batchKey = (field: string) => keyPart(field, `${field} must be a string`)

/**
 * The runs list's filter, as JSON: the same fields and checks as `GET /api/runs` (one definition
 * above), with `flag` as an array. Unknown fields are refused by name.
 */
export const batchFilterSchema = fromNotAfterTo(
  z.strictObject(analyticsQuerySchema.shape, { message: 'filter has a field the runs filter does not take' }),
)

const runKeySchema = z.strictObject(
  runKeyShape((name) => batchKey(`runs.${name}`)),
  { message: 'runs entries take org, namespace, agent and runId only' },
)

/** A batch's and an undo's dry run and token, and the reason a write needs. */
const dryRun = z.boolean({ message: 'dryRun must be true or false' })
const token = z.string({ message: 'token must be a string' }).max(200_000, 'token is too long').optional()
const batchReason = z
  .string({ message: 'reason must be a string' })
  .trim()
  .max(2000, 'reason is longer than 2000 characters')
  .optional()

/** A write (not a dry run) needs the dry run's token; the error says to send it. */
function requireToken(v: { dryRun: boolean; token?: string }, ctx: z.RefinementCtx) {
  if (!v.dryRun && !v.token) {
    ctx.addIssue({
      code: 'custom',
      path: ['token'],
      message: 'token is required to write: send the token of the dry run you reviewed',
    })
  }
}

/** `POST /api/batches`: clear or restore one block across the runs a filter matches. */
export const batchBodySchema = strictBody({
  filter: batchFilterSchema,
  blockKey: batchKey('blockKey').default('checkpoint'),
  action: z.enum(['clear', 'restore'], { message: 'action must be clear or restore' }),
  before: isoDate('before', z.string({ message: 'before must be an ISO 8601 time' })).optional(),
  reason: batchReason,
  dryRun,
  token,
  /** Writes into runs still running with a recent checkpoint too (skipped otherwise, as single writes refuse them). */
  force,
  /** Narrows the filter to these runs (e.g. retrying the conflicted ones of a batch). */
  runs: z
    .array(runKeySchema)
    .min(1, 'runs must not be empty')
    .max(BATCH_MAX_RUNS, `runs lists more than ${BATCH_MAX_RUNS} runs`)
    .optional(),
}).superRefine((v, ctx) => {
  if (v.action === 'restore' && !v.before) {
    ctx.addIssue({
      code: 'custom',
      path: ['before'],
      message: 'before is required for restore: the time to restore each block as of',
    })
  }
  if (v.action === 'clear' && v.before) {
    ctx.addIssue({ code: 'custom', path: ['before'], message: 'before applies to restore only' })
  }
  if (!v.dryRun && !v.reason) {
    ctx.addIssue({
      code: 'custom',
      path: ['reason'],
      message: 'reason is required to write: say why these runs are changed',
    })
  }
  requireToken(v, ctx)
})

export type BatchBody = z.infer<typeof batchBodySchema>
export type BatchFilter = z.infer<typeof batchFilterSchema>
export type BatchRunKey = z.infer<typeof runKeySchema>

/** `POST /api/batches/{batchId}/undo`: the same dry-run, token and reason rules as a batch. */
export const undoBodySchema = strictBody({
  dryRun,
  token,
  reason: batchReason,
  /** Writes into runs still running with a recent checkpoint too (skipped otherwise). */
  force,
}).superRefine((v, ctx) => {
  if (!v.dryRun && !v.reason)
    ctx.addIssue({
      code: 'custom',
      path: ['reason'],
      message: 'reason is required to write: say why the batch is taken back',
    })
  requireToken(v, ctx)
})

export type UndoBody = z.infer<typeof undoBodySchema>

/** The ids the console issues: a kept batch's, a saved view's. */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/** A kept batch's id, as the console issues them (a UUID). */
export const batchIdParamsSchema = z.object({ batchId: z.string().regex(UUID, 'batchId must be a batch id (a UUID)') })

/** `GET /api/batches`: how many of the newest batches. */
export const batchesQuerySchema = strictQuery({
  limit: z.coerce
    .number({ message: 'limit must be a number' })
    .int('limit must be a whole number')
    .min(1, 'limit must be at least 1')
    .max(200, 'limit must be at most 200')
    .optional(),
})

export const VIEW_NAME_MAX = 80

const viewName = z
  .string({ message: 'name must be a string' })
  .trim()
  .min(1, 'name must not be empty')
  .max(VIEW_NAME_MAX, `name is longer than ${VIEW_NAME_MAX} characters`)

const alertSchema = z.strictObject(
  {
    webhook: z
      .string({ message: 'webhook must be a string' })
      // Its host is checked against the configured allow-list by the routes that take it.
      .max(2048, 'webhook is longer than 2048 characters'),
    threshold: z
      .number({ message: 'threshold must be a number' })
      .int('threshold must be a whole number')
      .min(1, 'threshold must be at least 1')
      .max(10_000, 'threshold must be at most 10000'),
    enabled: z.boolean({ message: 'enabled must be true or false' }).default(true),
  },
  { message: 'alert takes webhook, threshold and enabled only' },
)

export const viewBodySchema = strictBody({
  name: viewName,
  filter: batchFilterSchema,
  shared: z.boolean({ message: 'shared must be true or false' }).default(false),
  alert: alertSchema.nullable().optional(),
})

export const viewPatchSchema = strictBody({
  name: viewName.optional(),
  filter: batchFilterSchema.optional(),
  shared: z.boolean({ message: 'shared must be true or false' }).optional(),
  alert: alertSchema.nullable().optional(),
}).refine((v) => Object.keys(v).length > 0, {
  message: 'body must change at least one of name, filter, shared, alert',
  path: ['name'],
})

export const viewIdParamsSchema = z.object({ id: z.string().regex(UUID, 'id must be a view id (a UUID)') })

export type ViewBody = z.infer<typeof viewBodySchema>
export type ViewPatch = z.infer<typeof viewPatchSchema>
