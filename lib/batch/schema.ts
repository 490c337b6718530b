import { z } from 'zod'
import { analyticsQuerySchema } from '../api/schemas'

/** Most runs one batch may touch; a filter matching more is refused with the count. */
export const BATCH_MAX_RUNS = 1000

const key = (field: string) =>
  z
    .string({ message: `${field} must be a string` })
    .min(1, `${field} must not be empty`)
    .max(1024, `${field} is longer than 1024 characters`)

/**
 * The runs list's filter, as JSON: the same fields and checks as `GET /api/runs` (one definition in
 * lib/api/schemas.ts), with `flag` as an array. Unknown fields are refused by name.
 */
export const batchFilterSchema = z
  .strictObject(analyticsQuerySchema.shape, { message: 'filter has a field the runs filter does not take' })
  .refine((v) => !v.from || !v.to || v.from <= v.to, { message: 'from must not be after to', path: ['from'] })

const runKeySchema = z.strictObject(
  { org: key('runs.org'), namespace: key('runs.namespace'), agent: key('runs.agent'), runId: key('runs.runId') },
  { message: 'runs entries take org, namespace, agent and runId only' },
)

const isoTime = z
  .string({ message: 'before must be an ISO 8601 time' })
  .refine((v) => /^\d{4}-\d{2}-\d{2}([T ][\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/.test(v) && !Number.isNaN(Date.parse(v)), {
    message: 'before must be an ISO 8601 date or date-time',
  })
  .transform((v) => new Date(v))

/** `POST /api/batches`: clear or restore one block across the runs a filter matches. */
export const batchBodySchema = z
  .strictObject(
    {
      filter: batchFilterSchema,
      blockKey: key('blockKey').default('checkpoint'),
      action: z.enum(['clear', 'restore'], { message: 'action must be clear or restore' }),
      before: isoTime.optional(),
      reason: z
        .string({ message: 'reason must be a string' })
        .trim()
        .max(2000, 'reason is longer than 2000 characters')
        .optional(),
      dryRun: z.boolean({ message: 'dryRun must be true or false' }),
      token: z.string({ message: 'token must be a string' }).max(200_000, 'token is too long').optional(),
      /** Narrows the filter to these runs (e.g. retrying the conflicted ones of a batch). */
      /** Writes into runs still running with a recent checkpoint too (skipped otherwise, as single writes refuse them). */
      force: z.boolean({ message: 'force must be true or false' }).optional(),
      runs: z
        .array(runKeySchema)
        .min(1, 'runs must not be empty')
        .max(BATCH_MAX_RUNS, `runs lists more than ${BATCH_MAX_RUNS} runs`)
        .optional(),
    },
    { message: 'body has a field this route does not take' },
  )
  .superRefine((v, ctx) => {
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
    if (!v.dryRun && !v.token) {
      ctx.addIssue({
        code: 'custom',
        path: ['token'],
        message: 'token is required to write: send the token of the dry run you reviewed',
      })
    }
  })

export type BatchBody = z.infer<typeof batchBodySchema>
export type BatchFilter = z.infer<typeof batchFilterSchema>
export type BatchRunKey = z.infer<typeof runKeySchema>

/** `POST /api/batches/{batchId}/undo`: the same dry-run, token and reason rules as a batch. */
export const undoBodySchema = z
  .strictObject(
    {
      dryRun: z.boolean({ message: 'dryRun must be true or false' }),
      token: z.string({ message: 'token must be a string' }).max(200_000, 'token is too long').optional(),
      reason: z
        .string({ message: 'reason must be a string' })
        .trim()
        .max(2000, 'reason is longer than 2000 characters')
        .optional(),
      /** Writes into runs still running with a recent checkpoint too (skipped otherwise). */
      force: z.boolean({ message: 'force must be true or false' }).optional(),
    },
    { message: 'body has a field this route does not take' },
  )
  .superRefine((v, ctx) => {
    if (!v.dryRun && !v.reason)
      ctx.addIssue({
        code: 'custom',
        path: ['reason'],
        message: 'reason is required to write: say why the batch is taken back',
      })
    if (!v.dryRun && !v.token)
      ctx.addIssue({
        code: 'custom',
        path: ['token'],
        message: 'token is required to write: send the token of the dry run you reviewed',
      })
  })

export type UndoBody = z.infer<typeof undoBodySchema>

/** A kept batch's id, as the console issues them (a UUID). */
export const batchIdParamsSchema = z.object({
  batchId: z
    .string()
    .regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i, 'batchId must be a batch id (a UUID)'),
})

/** `GET /api/batches`: how many of the newest batches. */
export const batchesQuerySchema = z.strictObject(
  {
    limit: z.coerce
      .number({ message: 'limit must be a number' })
      .int('limit must be a whole number')
      .min(1, 'limit must be at least 1')
      .max(200, 'limit must be at most 200')
      .optional(),
  },
  { message: 'query has a parameter this route does not take' },
)
