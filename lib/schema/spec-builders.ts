/** Small builders that keep the contract readable as data. */
import type { ColumnSpec, EngineSpec, Severity, SkipIndexSpec, TableGroup, TableSpec, ViewSpec } from './types'

export const DT = "DateTime64(3, 'UTC')"
export const IDENTITY: ColumnSpec[] = ['org', 'namespace', 'agent', 'user_id', 'session_id'].map((name) => ({ name, type: 'String' }))
export const RUN_ID_BLOOM: SkipIndexSpec = { name: 'run_id_idx', expr: 'run_id', type: 'bloom_filter', granularity: 1 }

export const cols = (spec: string): ColumnSpec[] =>
  spec
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean)
    .map((l) => {
      const m = /^(\w+)\s+(.+?)(?:\s+DEFAULT\s+(.+))?$/.exec(l)
      if (!m) throw new Error(`contract: cannot read column line "${l}"`)
      return m[3] ? { name: m[1], type: m[2], default: m[3] } : { name: m[1], type: m[2] }
    })

export const split = (fullName: string) => {
  const dot = fullName.indexOf('.')
  return { database: fullName.slice(0, dot), name: fullName.slice(dot + 1) }
}

export const engine = (family: string, ...args: string[]): EngineSpec => ({ family, args })

export type Common = { key: string; group: TableGroup; purpose: string; whenMissing: Severity; disables: string }

export function table(fullName: string, c: Common & { engine: EngineSpec; sortingKey: string[]; columns: ColumnSpec[]; skipIndexes?: SkipIndexSpec[] }): TableSpec {
  return { kind: 'table', fullName, ...split(fullName), skipIndexes: [], detailed: true, ...c }
}

export function view(fullName: string, c: Common & { target: string; source: string }): ViewSpec {
  return { kind: 'materializedView', fullName, ...split(fullName), ...c }
}
