/** Reading ClickHouse's own text: engine definitions, sorting keys, types, view definitions. */
import type { ColumnSpec, EngineSpec, SkipIndexSpec } from './types'

/** Splits `a, f(b, c), d` on its top-level commas. */
export function splitTopLevel(text: string): string[] {
  const out: string[] = []
  let depth = 0
  let quote: string | null = null
  let cur = ''
  for (const ch of text) {
    if (quote) {
      if (ch === quote) quote = null
    } else if (ch === "'" || ch === '"' || ch === '`') quote = ch
    else if (ch === '(' || ch === '[') depth++
    else if (ch === ')' || ch === ']') depth--
    else if (ch === ',' && depth === 0) {
      out.push(cur.trim())
      cur = ''
      continue
    }
    cur += ch
  }
  if (cur.trim() !== '') out.push(cur.trim())
  return out
}

/** Whitespace and quoting differences are not differences. */
export const normalizeType = (t: string) => t.replace(/\s+/g, '').replace(/"/g, "'")
export const normalizeExpr = (e: string) => e.replace(/\s+/g, '').replace(/`/g, '')
export const stripLowCardinality = (t: string) => t.replace(/LowCardinality\((.*)\)/g, '$1')

/** `SharedReplacingMergeTree('/path', '{replica}', version)` → family ReplacingMergeTree, args [version]. */
export function parseEngine(engine: string, engineFull: string): EngineSpec {
  const family = engine.replace(/^(Replicated|Shared)(?=\w*MergeTree$)/, '')
  const rest = engineFull.startsWith(engine) ? engineFull.slice(engine.length) : ''
  let args: string[] = []
  if (rest.startsWith('(')) {
    let depth = 0
    let end = 0
    for (let i = 0; i < rest.length; i++) {
      if (rest[i] === '(') depth++
      else if (rest[i] === ')' && --depth === 0) {
        end = i
        break
      }
    }
    // The replication path and replica name are not part of what the contract fixes.
    args = splitTopLevel(rest.slice(1, end)).filter((a) => !/^'.*'$/.test(a))
  }
  return { family, args }
}

export const engineText = (e: EngineSpec) => (e.args.length ? `${e.family}(${e.args.join(', ')})` : e.family)

/** Strips backticks from `db`.`table`. */
const unquote = (name: string) => name.replace(/`/g, '')

export function viewTarget(createQuery: string): string | null {
  const m = /\bTO\s+((?:`[^`]+`|\w+)\.(?:`[^`]+`|\w+))/i.exec(createQuery)
  return m ? unquote(m[1]) : null
}

/** Index of the `)` that closes the `(` at `open`, or -1. */
function closingParen(text: string, open: number): number {
  let depth = 0
  let quote: string | null = null
  for (let i = open; i < text.length; i++) {
    const ch = text[i]
    if (quote) {
      if (ch === quote) quote = null
    } else if (ch === "'" || ch === '`') quote = ch
    else if (ch === '(') depth++
    else if (ch === ')' && --depth === 0) return i
  }
  return -1
}

export type ParsedCreateTable = {
  engine: EngineSpec
  sortingKey: string[]
  columns: ColumnSpec[]
  skipIndexes: SkipIndexSpec[]
}

/**
 * Reads the console's own `CREATE TABLE` statements (column list, skip indexes, ENGINE, ORDER BY),
 * so objects whose definition lives only in the run index, facets and rollup DDL can be checked without a second copy.
 */
export function parseCreateTable(sql: string): ParsedCreateTable | null {
  const open = sql.indexOf('(')
  const close = open < 0 ? -1 : closingParen(sql, open)
  if (close < 0) return null
  const columns: ColumnSpec[] = []
  const skipIndexes: SkipIndexSpec[] = []
  for (const entry of splitTopLevel(sql.slice(open + 1, close))) {
    const ix = /^INDEX\s+(\w+)\s+([\s\S]+?)\s+TYPE\s+(\w+)(?:\([^)]*\))?(?:\s+GRANULARITY\s+(\d+))?$/i.exec(entry)
    if (ix) {
      skipIndexes.push({ name: ix[1], expr: ix[2], type: ix[3], granularity: Number(ix[4] ?? 1) })
      continue
    }
    if (/^(PROJECTION|CONSTRAINT)\s/i.test(entry)) continue
    const col = /^`?(\w+)`?\s+([\s\S]+?)(?:\s+DEFAULT\s+([\s\S]+))?$/.exec(entry)
    if (!col) return null
    columns.push(col[3] ? { name: col[1], type: col[2], default: col[3] } : { name: col[1], type: col[2] })
  }
  const rest = sql.slice(close + 1)
  const eng = /ENGINE\s*=\s*(\w+)/i.exec(rest)
  if (!eng) return null
  const afterName = rest.slice(eng.index + eng[0].length)
  let args: string[] = []
  if (afterName.startsWith('(')) {
    const end = closingParen(afterName, 0)
    args = splitTopLevel(afterName.slice(1, end)).filter((a) => !/^'.*'$/.test(a))
  }
  const order = /ORDER BY\s+/i.exec(rest)
  let sortingKey: string[] = []
  if (order) {
    const from = order.index + order[0].length
    if (rest[from] === '(') sortingKey = splitTopLevel(rest.slice(from + 1, closingParen(rest, from)))
    else sortingKey = [/^[^\s]+/.exec(rest.slice(from))?.[0] ?? '']
  }
  return { engine: { family: eng[1], args }, sortingKey, columns, skipIndexes }
}
