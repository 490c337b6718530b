import { param, sql, trusted, type Sql } from '../clickhouse/sql'

/**
 * The free-text filter `q`: a case-insensitive substring of a run's goal, run_id or agent name.
 * A checkpoint-only run has no goal, so it matches on run_id and agent only.
 */
function contains(expr: Sql, q: string): Sql {
  return sql`positionCaseInsensitiveUTF8(${expr}, ${param('q', 'String', q)}) > 0`
}

/** `q` on a run whose goal is the expression `goal` (a column, or a tuple element of the latest version). */
export function qMatchesRun(q: string, goal: Sql = trusted('goal')): Sql {
  return sql`(${contains(goal, q)} OR ${contains(trusted('run_id'), q)} OR ${contains(trusted('agent'), q)})`
}

/** `q` on a checkpoint-only run: its run_id or agent name. */
export function qMatchesOrphan(q: string): Sql {
  return sql`(${contains(trusted('run_id'), q)} OR ${contains(trusted('agent'), q)})`
}
