/**
 * The data contract as data: what the schema doctor expects to find.
 * Names come from tableNames() / runIndexNames(), so configured database names are honoured. The
 * table shapes are read from the declarations in lib/tables, which also write the CREATE statements.
 */
import { getConfig } from '../config'
import type { LoomTableName } from '../tables/table-keys'
import { columnRenames, tableNames } from '../loom/tables'
import { auditLogTable } from '../tables/audit-log'
import type { TableDeclaration } from '../tables/declaration'
import { LOOM_TABLES } from '../tables/loom-tables'
import { revokedSessionsTable } from '../tables/revoked-sessions'
import { batchesTable } from '../tables/batches'
import { setupLogTable } from '../tables/setup-log'
import { alertDeliveriesTable, savedViewsTable } from '../tables/saved-views'
import { workingMemoryHistoryTable, workingMemoryHistoryView } from '../tables/working-memory-history'
import { runIndexObjects } from './schema-contract-run-index'
import { table, view } from '../schema/spec-builders'
import type { Contract, ObjectSpec, TableMapping, TableSpec } from '../schema/types'

/** Where the schema mapping renames a Loom table or its columns, the spec carries the physical names. */
function mapped(spec: TableSpec, contractTable: LoomTableName, config = getConfig()): TableSpec {
  if (!config.schemaMap[contractTable]) return spec
  const renames = columnRenames(spec.fullName, config) ?? {}
  const rename = (name: string) => renames[name] ?? name
  const mapping: TableMapping = {
    contractTable,
    table: spec.fullName,
    columns: Object.entries(renames).map(([contract, physical]) => ({ contract, physical })),
  }
  return {
    ...spec,
    engine: { ...spec.engine, args: spec.engine.args.map(rename) },
    sortingKey: spec.sortingKey.map(rename),
    columns: spec.columns.map((c) => ({ ...c, name: rename(c.name) })),
    skipIndexes: spec.skipIndexes.map((ix) => ({ ...ix, expr: rename(ix.expr) })),
    mapping,
  }
}

/** The expected spec of a declared table stored under `fullName`. */
function declared(decl: TableDeclaration, fullName: string): TableSpec {
  const { key, group, purpose, whenMissing, disables, engine, sortingKey, columns, skipIndexes } = decl
  return table(fullName, { key, group, purpose, whenMissing, disables, engine, sortingKey, columns, skipIndexes })
}

/** The contract's Loom tables (with the schema mapping applied). */
function loomTables(t: ReturnType<typeof tableNames>): TableSpec[] {
  return LOOM_TABLES.map((decl) => mapped(declared(decl, t[decl.key]), decl.contractName))
}

function dashboardObjects(t: ReturnType<typeof tableNames>): ObjectSpec[] {
  return [
    declared(auditLogTable, t.audit),
    declared(revokedSessionsTable, t.revokedSessions),
    declared(batchesTable, t.batches),
    declared(setupLogTable, t.setupLog),
    declared(savedViewsTable, t.savedViews),
    declared(alertDeliveriesTable, t.alertDeliveries),
    declared(workingMemoryHistoryTable, t.history),
    view(t.historyView, {
      ...workingMemoryHistoryView,
      purpose: `Copies each row inserted into ${t.workingMemory} into ${t.history}.`,
      target: t.history,
      source: t.workingMemory,
    }),
  ]
}

export function schemaContract(databases = getConfig().databases): Contract {
  const t = tableNames(databases)
  return {
    databases,
    objects: [...loomTables(t), ...dashboardObjects(t), ...runIndexObjects(t, databases.runs)],
  }
}

export function tableSpecs(contract: Contract): TableSpec[] {
  return contract.objects.filter((o): o is TableSpec => o.kind === 'table')
}
