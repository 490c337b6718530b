/**
 * SQL text that carries its own parameters. A value enters a statement only through `param()`,
 * which writes the `{name:Type}` placeholder and records the value in the same object, so a
 * placeholder without its value cannot be written, and composing fragments merges their values.
 * Identifiers and table expressions come from validated configuration and enter through
 * `trusted()`; a plain string cannot be interpolated into the `sql` tag (a type error).
 */

/** Any value the client can bind (strings, numbers, arrays, Dates, tuples); never `undefined`. */
export type ParamValue = string | number | bigint | boolean | object | null

export type SqlParams = Readonly<Record<string, ParamValue>>

const SQL = Symbol('sql')

export type Sql = {
  readonly [SQL]: true
  readonly sql: string
  readonly params: SqlParams
}

function make(text: string, params: SqlParams): Sql {
  return { [SQL]: true, sql: text, params }
}

function isSql(v: unknown): v is Sql {
  return typeof v === 'object' && v !== null && (v as { [SQL]?: unknown })[SQL] === true
}

const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/

function merge(into: Record<string, ParamValue>, from: SqlParams): void {
  for (const [name, value] of Object.entries(from)) {
    if (Object.hasOwn(into, name) && !sameValue(into[name], value)) {
      throw new Error(`SQL parameter "${name}" is bound twice with different values`)
    }
    into[name] = value
  }
}

function sameValue(a: ParamValue, b: ParamValue): boolean {
  if (a === b) return true
  if (a instanceof Date && b instanceof Date) return a.getTime() === b.getTime()
  return typeof a === 'object' && typeof b === 'object' && JSON.stringify(a) === JSON.stringify(b)
}

/** A placeholder `{name:Type}` bound to its value. */
export function param(name: string, type: string, value: ParamValue): Sql {
  if (!NAME.test(name)) throw new Error(`Not a parameter name: ${JSON.stringify(name)}`)
  if (value === undefined) throw new Error(`SQL parameter "${name}" has no value`)
  return make(`{${name}:${type}}`, { [name]: value })
}

/** Text from configuration or code, never from a request: table names, column lists, keywords. */
export function trusted(text: string): Sql {
  return make(text, {})
}

/** A statement or fragment; `${...}` takes only other fragments. */
export function sql(strings: TemplateStringsArray, ...parts: Sql[]): Sql {
  let text = strings[0]
  const params: Record<string, ParamValue> = {}
  parts.forEach((part, i) => {
    if (!isSql(part)) throw new Error('Only SQL fragments can be interpolated into sql``')
    text += part.sql + strings[i + 1]
    merge(params, part.params)
  })
  return make(text, params)
}

/** Fragments joined by a separator (`AND`, `, `, `UNION ALL`); empty text when there are none. */
export function join(parts: readonly Sql[], separator: string): Sql {
  const params: Record<string, ParamValue> = {}
  for (const p of parts) merge(params, p.params)
  return make(parts.map((p) => p.sql).join(separator), params)
}

/** `a AND b AND …`, or `1` (true) when there are no conditions. */
export function and(conditions: readonly Sql[]): Sql {
  if (conditions.length === 0) return trusted('1')
  return join(
    conditions.map((c) => sql`(${c})`),
    ' AND ',
  )
}
