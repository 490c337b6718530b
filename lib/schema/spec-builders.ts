/** Small builders that keep the contract readable as data. */
import type { ColumnSpec, EngineSpec, Severity, SkipIndexSpec, TableGroup, TableSpec, ViewSpec } from './types'

export const split = (fullName: string) => {
  const dot = fullName.indexOf('.')
  return { database: fullName.slice(0, dot), name: fullName.slice(dot + 1) }
}

export type Common = { key: string; group: TableGroup; purpose: string; whenMissing: Severity; disables: string }

export function table(
  fullName: string,
  c: Common & { engine: EngineSpec; sortingKey: string[]; columns: ColumnSpec[]; skipIndexes?: SkipIndexSpec[] },
): TableSpec {
  return { kind: 'table', fullName, ...split(fullName), skipIndexes: [], detailed: true, ...c }
}

export function view(fullName: string, c: Common & { target: string; source: string }): ViewSpec {
  return { kind: 'materializedView', fullName, ...split(fullName), ...c }
}
