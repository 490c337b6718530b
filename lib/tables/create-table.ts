import type { TableDeclaration } from './declaration'

const INDENT = '    '

/**
 * The CREATE statement of a declared table, with the declaration's (contract) column names.
 * `ttl` replaces the declared TTL where the retention is configured at install time.
 */
export function createTableSql(table: TableDeclaration, fullName: string, options: { ttl?: string } = {}): string {
  const lines = [
    ...table.columns.map((c) => `${c.name} ${c.type}${c.default === undefined ? '' : ` DEFAULT ${c.default}`}`),
    ...table.skipIndexes.map((ix) => `INDEX ${ix.name} ${ix.expr} TYPE ${ix.type} GRANULARITY ${ix.granularity}`),
  ]
  const engineArgs = table.engine.args.length ? `(${table.engine.args.join(', ')})` : ''
  const key = table.sortingKey.length === 1 ? table.sortingKey[0] : `(${table.sortingKey.join(', ')})`
  const ttl = options.ttl ?? table.ttl
  return [
    `CREATE TABLE IF NOT EXISTS ${fullName} (`,
    lines.map((l) => INDENT + l).join(',\n'),
    `) ENGINE = ${table.engine.family}${engineArgs}`,
    `ORDER BY ${key}`,
    ...(ttl ? [`TTL ${ttl}`] : []),
  ].join('\n')
}
