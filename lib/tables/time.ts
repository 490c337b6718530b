/** ClickHouse DateTime64(3, 'UTC') text <-> ISO 8601 UTC. */

const CH_TIME = /^(\d{4}-\d{2}-\d{2}) (\d{2}:\d{2}:\d{2})(\.\d{1,9})?$/

export function chTimeToIso(value: string): string {
  const m = CH_TIME.exec(value)
  if (!m) throw new Error(`Unexpected ClickHouse time value: ${value}`)
  const frac = (m[3] ?? '.000').slice(0, 4).padEnd(4, '0')
  return `${m[1]}T${m[2]}${frac}Z`
}

/**
 * SQL text of a time expression as the API's ISO 8601 UTC string, the same text chTimeToIso makes
 * in Node, for answers ClickHouse writes as JSON. `expr` is trusted SQL (a column or a function of
 * columns), never input.
 */
export function isoTimeSql(expr: string): string {
  return `concat(replaceOne(toString(toDateTime64(${expr}, 3, 'UTC')), ' ', 'T'), 'Z')`
}

export function toChTime(date: Date | string): string {
  const d = typeof date === 'string' ? new Date(date) : date
  if (Number.isNaN(d.getTime())) throw new Error(`Invalid date: ${String(date)}`)
  return d.toISOString().replace('T', ' ').replace('Z', '')
}

export function nullableChTimeToIso(value: string | null): string | null {
  return value === null ? null : chTimeToIso(value)
}
