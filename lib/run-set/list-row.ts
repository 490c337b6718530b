import { z } from 'zod'

/** A run's key columns, as every run-set query names them. */
export const runKeyColumns = z.object({
  org: z.string(),
  namespace: z.string(),
  agent: z.string(),
  run_id: z.string(),
})
export type RunKeyRow = z.infer<typeof runKeyColumns>

/** A run's key and the writer identity (user_id, session_id) a row of it was read under. */
export const runIdentityColumns = runKeyColumns.extend({
  user_id: z.string(),
  session_id: z.string(),
})

/** One row of the runs list, whichever backend read it. */
export const listRowSchema = runIdentityColumns.extend({
  goal: z.string(),
  status: z.string(),
  attempt: z.coerce.number(),
  started_text: z.string(),
  completed_text: z.string().nullable(),
  duration_ms: z.coerce.number().nullable(),
  turns: z.coerce.number(),
  cost_usd: z.coerce.number(),
})

export type ListRow = z.infer<typeof listRowSchema>
