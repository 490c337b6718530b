import { z } from 'zod'
import { columnNames } from './declaration'
import { LOOM_TABLES } from './loom-tables'
import { LOOM_TABLE_KEYS, type LoomTableName } from './table-keys'

/**
 * The schema mapping: for a Loom whose tables or columns carry other names than the data contract
 * (the tables lib/loom/ddl.ts creates), which physical table and columns stand for each contract table and column.
 *
 *   { "working_memory": { "table": "agent_memory", "columns": { "content": "body" } },
 *     "runs": { "table": "other_db.agent_runs" } }
 *
 * A table name without a database is looked up in the contract table's database (LOOM_DATABASE or
 * LOOM_TELEMETRY_DATABASE). Every query reads a mapped table through `source()` (lib/loom/tables.ts),
 * which renames the physical columns back to the contract's names, and every insert renames the
 * contract's columns to the physical ones, so the rest of the code only ever sees contract names.
 */

/** The contract's columns of each Loom table, as its declaration beside this file lists them. */
export const LOOM_COLUMNS: Record<LoomTableName, readonly string[]> = loomColumns()

function loomColumns() {
  const out = {} as Record<LoomTableName, readonly string[]>
  for (const table of LOOM_TABLES) out[table.contractName] = columnNames(table)
  return out
}

const IDENT = /^[A-Za-z_][A-Za-z0-9_]*$/
const identifier = z.string().regex(IDENT, 'must be a plain ClickHouse identifier (letters, digits, underscore)')
const tableName = z
  .string()
  .regex(
    /^([A-Za-z_][A-Za-z0-9_]*\.)?[A-Za-z_][A-Za-z0-9_]*$/,
    'must be table or database.table (letters, digits, underscore)',
  )

function tableEntry(name: LoomTableName) {
  const known = new Set(LOOM_COLUMNS[name])
  return z.strictObject({
    table: tableName.optional(),
    columns: z
      .record(z.string(), identifier)
      .optional()
      .superRefine((columns, ctx) => {
        const physical = new Set<string>()
        for (const [logical, target] of Object.entries(columns ?? {})) {
          if (!known.has(logical)) {
            ctx.addIssue({
              code: 'custom',
              path: [logical],
              message: `${name} has no contract column "${logical}" (known: ${[...known].join(', ')})`,
            })
          }
          if (physical.has(target))
            ctx.addIssue({ code: 'custom', path: [logical], message: `two columns are mapped to "${target}"` })
          physical.add(target)
        }
      }),
  })
}

const schemaMapSchema = z.strictObject(
  Object.fromEntries(Object.keys(LOOM_TABLE_KEYS).map((n) => [n, tableEntry(n as LoomTableName).optional()])) as {
    [K in LoomTableName]: z.ZodOptional<ReturnType<typeof tableEntry>>
  },
)

/** A parsed mapping: only the tables that differ, with only the columns that differ. */
export type SchemaMap = Partial<Record<LoomTableName, { table?: string; columns?: Record<string, string> }>>

/**
 * Parses the mapping's JSON text; the error names the bad entry (`working_memory.columns.conten: …`).
 * Columns mapped to their own name are dropped, so an empty result means "no mapping".
 */
export function parseSchemaMap(text: string): { map?: SchemaMap; problems: string[] } {
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch (err) {
    return { problems: [`is not valid JSON (${err instanceof Error ? err.message : String(err)})`] }
  }
  const parsed = schemaMapSchema.safeParse(json)
  if (!parsed.success) {
    return { problems: parsed.error.issues.map((i) => `${i.path.length ? `${i.path.join('.')}: ` : ''}${i.message}`) }
  }
  const map: SchemaMap = {}
  for (const [name, entry] of Object.entries(parsed.data) as [
    LoomTableName,
    { table?: string; columns?: Record<string, string> } | undefined,
  ][]) {
    if (!entry) continue
    const columns = Object.fromEntries(Object.entries(entry.columns ?? {}).filter(([l, p]) => l !== p))
    const out: { table?: string; columns?: Record<string, string> } = {}
    if (entry.table) out.table = entry.table
    if (Object.keys(columns).length) out.columns = columns
    if (out.table || out.columns) map[name] = out
  }
  return { map, problems: [] }
}
