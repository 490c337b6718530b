/**
 * The derived structures' part of the contract: every table derivedTables() creates, in its order,
 * then the marker (created last). Unlike Loom's tables, whose shape the data contract fixes and
 * lib/tables declares, the run index is the console's own structure and changes with it: its
 * expected columns, engine and key are read from that DDL, so there is one definition to keep.
 */
import { derivedMetaDdl, derivedTables } from '../derived/ddl'
import type { tableNames } from '../loom/tables'
import { parseCreateTable } from '../schema/clickhouse-text'
import { engine } from '../tables/declaration'
import { split, table } from '../schema/spec-builders'
import type { ObjectSpec } from '../schema/types'

const INDEX_OFF = 'Runs list: read with the slower union over working memory instead of the run index'

const purposeOf = (what: string) =>
  what.replace(/^(table|materialized view): /, '').replace(/^./, (c) => c.toUpperCase())

function tableFromDdl(name: string, sql: string, purpose: string): ObjectSpec {
  const common = {
    key: `runIndex.${split(name).name}`,
    group: 'runIndex' as const,
    purpose,
    whenMissing: 'info' as const,
    disables: INDEX_OFF,
  }
  const parsed = parseCreateTable(sql)
  // A statement this reader cannot follow is still checked for presence.
  if (!parsed)
    return { ...table(name, { ...common, engine: engine(''), sortingKey: [], columns: [] }), detailed: false }
  return table(name, { ...common, ...parsed })
}

export function runIndexObjects(_t: ReturnType<typeof tableNames>, runsDb: string): ObjectSpec[] {
  const objects: ObjectSpec[] = derivedTables(runsDb).map((s) => tableFromDdl(s.name, s.sql, purposeOf(s.what)))
  const meta = derivedMetaDdl(runsDb)
  objects.push(
    tableFromDdl(
      meta.name,
      meta.sql,
      'Marks the derived tables (run index, triage, facets, analytics rollup) as installed and derived once (created last); its name carries the design version.',
    ),
  )
  // The key the page and the report use for the marker, whatever its versioned name.
  objects[objects.length - 1].key = 'runIndex.meta'
  return objects
}
