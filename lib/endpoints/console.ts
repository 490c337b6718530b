/** The console's own endpoints: health, the session, MCP. */
import { z } from 'zod'
import { clickhouseFields, iso, obj } from './parts'

export const derivedFreshness = obj({
  lagMs: z
    .number()
    .nullable()
    .describe(
      "how far the derived tables (run index, flags, facets, analytics) trail the agents' writes, in ms; null before the first batch or when they are not installed",
    ),
  lastRunAt: iso.nullable().describe('when the last derivation batch ended'),
  error: z
    .string()
    .nullable()
    .describe("the last batch's failure; null when it succeeded (a failed batch is retried on the next tick)"),
})
export type DerivedFreshness = z.infer<typeof derivedFreshness>

export const healthResponse = obj({
  ...clickhouseFields,
  readOnly: z.boolean(),
  schema: obj({
    phase: z.string(),
    detail: z.string().optional(),
    tables: z.array(obj({ name: z.string(), present: z.boolean() })),
  }),
  setup: obj({ runIndex: z.boolean(), history: z.boolean(), command: z.string() }).describe(
    'the optional parts `npm run db:init` installs: the runs list is slow without the run index; older versions vanish without history',
  ),
  engine: obj({ statements: z.number(), busyMs: z.number() })
    .nullable()
    .describe(
      "embedded only: statements the engine ran since start-up and the milliseconds it was busy with them (one at a time), read before this request's own statements; null for a ClickHouse server",
    ),
  derived: derivedFreshness,
})
export type HealthResponse = z.infer<typeof healthResponse>

const role = z.enum(['viewer', 'operator'])
const sessionUser = obj({ name: z.string(), role })

export const me = obj({
  user: sessionUser.nullable(),
  authRequired: z.boolean(),
  canWrite: z.boolean(),
  readOnly: z.boolean(),
})
export type Me = z.infer<typeof me>
export const login = obj({ user: sessionUser })
export const logout = obj({
  ok: z.literal(true),
  endedSession: z.boolean(),
  remembered: z.enum(['stored', 'process-only']).nullable(),
})

/** POST /api/mcp: a JSON-RPC 2.0 answer (the Model Context Protocol). */
export const mcpResponse = obj({
  jsonrpc: z.literal('2.0'),
  id: z.union([z.string(), z.number()]).nullable().optional(),
  result: z.unknown().optional(),
  error: obj({ code: z.number(), message: z.string() }).optional(),
}).describe('JSON-RPC 2.0; see modelcontextprotocol.io')
