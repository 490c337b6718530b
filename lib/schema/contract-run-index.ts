/**
 * The run index's part of the contract: every object runIndexDdl() creates, in its order, then
 * the meta table (created last). Unlike Loom's tables, whose shape the data contract fixes and
 * lib/tables declares, the run index is the console's own structure and changes with it: its
 * expected columns, engine and key are read from that DDL, so there is one definition to keep.
 */
import { runIndexDdl, runIndexNames } from '../loom/run-index-ddl'
import { runFacetsDdl, runFacetsNames } from '../loom/facets-ddl'
import { runRollupDdl, runRollupNames } from '../loom/rollup-ddl'
import type { tableNames } from '../loom/tables'
import { parseCreateTable } from './clickhouse-text'
import { engine } from '../tables/declaration'
import { split, table, view } from './spec-builders'
import type { ObjectSpec } from './types'

const INDEX_OFF = 'Runs list: read with the slower union over working memory instead of the run index'

const purposeOf = (what: string) => what.replace(/^(table|materialized view): /, '').replace(/^./, (c) => c.toUpperCase())

function tableFromDdl(name: string, sql: string, purpose: string): ObjectSpec {
  const common = { key: `runIndex.${split(name).name}`, group: 'runIndex' as const, purpose, whenMissing: 'info' as const, disables: INDEX_OFF }
  const parsed = parseCreateTable(sql)
  // A statement this reader cannot follow is still checked for presence.
  if (!parsed) return { ...table(name, { ...common, engine: engine(''), sortingKey: [], columns: [] }), detailed: false }
  return table(name, { ...common, ...parsed })
}

export function runIndexObjects(t: ReturnType<typeof tableNames>, runsDb: string): ObjectSpec[] {
  const ix = runIndexNames(runsDb)
  const ddl = runIndexDdl(t, ix)
  const facets = runFacetsDdl(t, runFacetsNames(runsDb))
  const rollup = runRollupDdl(t, runRollupNames(runsDb), ix)
  const objects: ObjectSpec[] = [...ddl.objects, ...facets.objects, ...rollup.objects].map((s) => {
    if (/^\s*CREATE MATERIALIZED VIEW/i.test(s.sql)) {
      return view(s.name, {
        key: `runIndex.${split(s.name).name}`,
        group: 'runIndex',
        purpose: purposeOf(s.what),
        whenMissing: 'info',
        disables: INDEX_OFF,
        target: /\bTO\s+([\w.]+)/i.exec(s.sql)?.[1] ?? '',
        source: s.source ?? /\bFROM\s+([\w.]+)/i.exec(s.sql)?.[1] ?? '',
      })
    }
    return tableFromDdl(s.name, s.sql, purposeOf(s.what))
  })
  objects.push(
    tableFromDdl(ix.meta, ddl.meta, 'Marks the run index as installed and backfilled (created last); its name carries the index schema version.'),
  )
  // Keys the page and the report use for the marker, whatever its versioned name.
  const meta = objects[objects.length - 1]
  meta.key = 'runIndex.meta'
  objects.push(
    tableFromDdl(runFacetsNames(runsDb).meta, facets.meta, 'Marks the run facets (suggestion counts) as installed and backfilled (created last).'),
  )
  objects[objects.length - 1].key = 'runIndex.facetsMeta'
  objects.push(
    tableFromDdl(runRollupNames(runsDb).meta, rollup.meta, 'Marks the analytics rollup (running totals) as installed and backfilled (created last).'),
  )
  objects[objects.length - 1].key = 'runIndex.rollupMeta'
  return objects
}
