/**
 * Compares what ClickHouse reports (system.tables, system.columns, system.data_skipping_indices,
 * system.parts) with the contract, one object at a time. Pure: no I/O, so it is unit-testable.
 */
import {
  engineText,
  normalizeExpr,
  normalizeType,
  parseEngine,
  splitTopLevel,
  stripLowCardinality,
  viewTarget,
} from './clickhouse-text'
import type {
  ColumnDiff,
  Issue,
  ObjectSpec,
  Severity,
  SkipIndexSpec,
  SkipIndexState,
  TableReport,
  TableSpec,
  TableStatus,
  ViewSpec,
} from './types'

export type FoundTable = {
  database: string
  name: string
  engine: string
  engineFull: string
  sortingKey: string
  totalRows: number | null
  createTableQuery: string
  /** Materialized views fed by this table (`db.view`). */
  dependents: string[]
}
export type FoundColumn = { name: string; type: string }
export type FoundIndex = { name: string; expr: string; type: string; granularity: number }
export type FoundParts = { active: number; rows: number }

export type Found = {
  tables: Map<string, FoundTable>
  columns: Map<string, FoundColumn[]>
  indexes: Map<string, FoundIndex[]>
  parts: Map<string, FoundParts>
}

const RANK: Record<TableStatus, number> = { ok: 0, info: 1, warning: 2, problem: 3 }

export function worst(severities: (Severity | TableStatus)[]): TableStatus {
  return severities.reduce<TableStatus>((w, s) => (RANK[s] > RANK[w] ? s : w), 'ok')
}

export function addIndexStatements(fullName: string, ix: SkipIndexSpec): string[] {
  return [
    `ALTER TABLE ${fullName} ADD INDEX ${ix.name} ${ix.expr} TYPE ${ix.type} GRANULARITY ${ix.granularity}`,
    `ALTER TABLE ${fullName} MATERIALIZE INDEX ${ix.name}`,
  ]
}

function levenshtein(a: string, b: string): number {
  const prev = Array.from({ length: b.length + 1 }, (_, i) => i)
  for (let i = 1; i <= a.length; i++) {
    let diag = prev[0]
    prev[0] = i
    for (let j = 1; j <= b.length; j++) {
      const up = prev[j]
      prev[j] = Math.min(prev[j] + 1, prev[j - 1] + 1, diag + (a[i - 1] === b[j - 1] ? 0 : 1))
      diag = up
    }
  }
  return prev[b.length]
}

/** An extra column of the same type whose name is close enough to be a rename. */
function renameCandidate(
  missing: { name: string; type: string },
  extra: { name: string; type: string }[],
): string | undefined {
  const plain = (s: string) => s.toLowerCase().replace(/[_-]/g, '')
  const candidates = extra
    .filter((c) => normalizeType(stripLowCardinality(c.type)) === normalizeType(stripLowCardinality(missing.type)))
    .map((c) => {
      const a = plain(missing.name)
      const b = plain(c.name)
      const score = a === b ? 0 : a.includes(b) || b.includes(a) ? 1 : levenshtein(a, b)
      return { name: c.name, score }
    })
    .filter((c) => c.score <= Math.max(2, Math.floor(missing.name.length / 3)))
    .sort((x, y) => x.score - y.score)
  return candidates[0]?.name
}

function compareColumns(spec: TableSpec, found: FoundColumn[], issues: Issue[]): ColumnDiff {
  const byName = new Map(found.map((c) => [c.name, c]))
  const expectedNames = new Set(spec.columns.map((c) => c.name))
  const extra = found.filter((c) => !expectedNames.has(c.name)).map((c) => ({ name: c.name, type: c.type }))
  const diff: ColumnDiff = { expected: spec.columns.length, found: found.length, missing: [], typeDiffers: [], extra }
  for (const col of spec.columns) {
    const f = byName.get(col.name)
    if (!f) {
      const renamedTo = renameCandidate(col, extra)
      diff.missing.push(renamedTo ? { name: col.name, type: col.type, renamedTo } : { name: col.name, type: col.type })
      issues.push({
        severity: 'problem',
        code: 'missing_column',
        subject: col.name,
        message: renamedTo
          ? `Column ${col.name} ${col.type} is missing; ${renamedTo} (${col.type}) may be it under another name. Views that read ${col.name} fail until it exists.`
          : `Column ${col.name} ${col.type} is missing: views that read it fail.`,
        fix: renamedTo
          ? undefined
          : [
              `ALTER TABLE ${spec.fullName} ADD COLUMN IF NOT EXISTS ${col.name} ${col.type}${col.default ? ` DEFAULT ${col.default}` : ''}`,
            ],
      })
      continue
    }
    if (normalizeType(f.type) !== normalizeType(col.type)) {
      const compatible = normalizeType(stripLowCardinality(f.type)) === normalizeType(stripLowCardinality(col.type))
      diff.typeDiffers.push({ name: col.name, expected: col.type, found: f.type, compatible })
      issues.push({
        severity: compatible ? 'info' : 'warning',
        code: 'type_differs',
        subject: col.name,
        message: compatible
          ? `Column ${col.name} is ${f.type}, the contract says ${col.type}: same values, different storage.`
          : `Column ${col.name} is ${f.type}, the contract says ${col.type}: values may read differently.`,
      })
    }
  }
  if (extra.length > 0) {
    issues.push({
      severity: 'info',
      code: 'extra_column',
      message: `${extra.length} column${extra.length === 1 ? '' : 's'} not in the contract (the console ignores ${extra.length === 1 ? 'it' : 'them'}): ${extra.map((c) => c.name).join(', ')}.`,
    })
  }
  return diff
}

function compareIndexes(spec: TableSpec, found: FoundIndex[], issues: Issue[]): SkipIndexState[] {
  return spec.skipIndexes.map((ix) => {
    const same = (f: FoundIndex) => normalizeExpr(f.expr) === normalizeExpr(ix.expr) && f.type === ix.type
    const named = found.find((f) => f.name === ix.name)
    const base = { name: ix.name, expr: ix.expr, type: ix.type, granularity: ix.granularity }
    if (named && same(named) && named.granularity === ix.granularity)
      return { ...base, state: 'ok', found: named, fix: [] }
    const equivalent = found.find(same)
    if (equivalent) return { ...base, state: 'equivalent', found: equivalent, fix: [] }
    if (named) {
      const fix = [`ALTER TABLE ${spec.fullName} DROP INDEX ${ix.name}`, ...addIndexStatements(spec.fullName, ix)]
      issues.push({
        severity: 'warning',
        code: 'index_differs',
        subject: ix.name,
        message: `Skip index ${ix.name} is ${named.expr} TYPE ${named.type} GRANULARITY ${named.granularity}, the contract says ${ix.expr} TYPE ${ix.type} GRANULARITY ${ix.granularity}: lookups by ${ix.expr} read more granules.`,
        fix,
      })
      return { ...base, state: 'differs', found: named, fix } satisfies SkipIndexState
    }
    const fix = addIndexStatements(spec.fullName, ix)
    issues.push({
      severity: 'warning',
      code: 'missing_index',
      subject: ix.name,
      message: `Skip index ${ix.name} (${ix.expr} TYPE ${ix.type}) is missing: run-scoped reads of this table scan every granule of the agent instead of skipping to the run.`,
      fix,
    })
    return { ...base, state: 'missing', found: null, fix } satisfies SkipIndexState
  })
}

/** What names and describes the object in every report, present or not. */
function identityOf(spec: ObjectSpec) {
  const { key, kind, group, database, name, fullName, purpose } = spec
  return { key, kind, group, database, name, fullName, purpose }
}

function missingReport(spec: ObjectSpec): TableReport {
  return {
    ...identityOf(spec),
    present: false,
    status: spec.whenMissing,
    disables: spec.disables,
    engine: { expected: spec.kind === 'table' ? engineText(spec.engine) : 'MaterializedView', found: null, ok: false },
    sortingKey: spec.kind === 'table' ? { expected: spec.sortingKey, found: null, ok: false } : null,
    columns: null,
    skipIndexes:
      spec.kind === 'table'
        ? spec.skipIndexes.map((ix) => ({ ...ix, state: 'missing' as const, found: null, fix: [] }))
        : [],
    view:
      spec.kind === 'materializedView'
        ? { expectedTarget: spec.target, foundTarget: null, source: spec.source, sourceLinked: false }
        : null,
    parts: null,
    rows: null,
    mapping: spec.kind === 'table' ? (spec.mapping ?? null) : null,
    issues: [
      {
        severity: spec.whenMissing,
        code: 'missing_table',
        message: `${spec.fullName} does not exist. ${spec.disables}.`,
      },
    ],
  }
}

function compareView(spec: ViewSpec, f: FoundTable, found: Found): TableReport {
  const issues: Issue[] = []
  const engineOk = f.engine === 'MaterializedView'
  if (!engineOk) {
    issues.push({
      severity: 'problem',
      code: 'engine',
      message: `${spec.fullName} is a ${f.engine}, not a materialized view: nothing is copied.`,
    })
  }
  const target = engineOk ? viewTarget(f.createTableQuery) : null
  if (engineOk && target !== spec.target) {
    issues.push({
      severity: 'problem',
      code: 'view_target',
      message: `The view writes to ${target ?? 'its own inner table'}, not ${spec.target}.`,
    })
  } else if (engineOk && !found.tables.has(spec.target)) {
    issues.push({
      severity: 'problem',
      code: 'view_target',
      message: `The view writes to ${spec.target}, which does not exist: inserts into ${spec.source} fail until it is created or the view dropped.`,
    })
  }
  const sourceLinked = found.tables.get(spec.source)?.dependents.includes(spec.fullName) ?? false
  if (engineOk && !sourceLinked) {
    issues.push({
      severity: 'warning',
      code: 'view_source',
      message: `The view is not fed by ${spec.source}: inserts there are not copied.`,
    })
  }
  return {
    ...identityOf(spec),
    present: true,
    status: worst(issues.map((i) => (i.severity === 'info' ? 'ok' : i.severity))),
    disables: null,
    engine: { expected: 'MaterializedView', found: f.engine, ok: engineOk },
    sortingKey: null,
    columns: null,
    skipIndexes: [],
    view: { expectedTarget: spec.target, foundTarget: target, source: spec.source, sourceLinked },
    parts: null,
    rows: null,
    mapping: null,
    issues,
  }
}

function compareTable(spec: TableSpec, f: FoundTable, found: Found): TableReport {
  const issues: Issue[] = []
  const parsed = parseEngine(f.engine, f.engineFull)
  const engineOk =
    !spec.detailed || (parsed.family === spec.engine.family && parsed.args.join(',') === spec.engine.args.join(','))
  const collapsing = spec.engine.family !== 'MergeTree'
  if (!engineOk) {
    issues.push({
      severity: 'problem',
      code: 'engine',
      message:
        parsed.family !== spec.engine.family
          ? `Engine is ${engineText(parsed)}, the contract says ${engineText(spec.engine)}${collapsing ? ': rows are not collapsed the way the console reads them (FINAL / latest version)' : ''}.`
          : `Engine is ${engineText(parsed)}, the contract says ${engineText(spec.engine)}: a different column decides which row wins.`,
    })
  }
  const foundKey = splitTopLevel(f.sortingKey)
  const keyOk = !spec.detailed || foundKey.map(normalizeExpr).join(',') === spec.sortingKey.map(normalizeExpr).join(',')
  if (!keyOk) {
    const absent = spec.sortingKey.filter((k) => !foundKey.map(normalizeExpr).includes(normalizeExpr(k)))
    const consequence = collapsing
      ? 'rows collapse by this key, so versions are merged per a different identity than the console assumes'
      : 'run-scoped reads cannot skip to the run and scan more of the table'
    issues.push({
      severity: collapsing ? 'problem' : 'warning',
      code: 'sorting_key',
      message: `Sorted by (${foundKey.join(', ') || 'nothing'}), the contract says (${spec.sortingKey.join(', ')})${absent.length ? `; not in the key: ${absent.join(', ')}` : ''}: ${consequence}.`,
    })
  }
  const columns = spec.detailed ? compareColumns(spec, found.columns.get(spec.fullName) ?? [], issues) : null
  const skipIndexes = compareIndexes(spec, found.indexes.get(spec.fullName) ?? [], issues)
  return {
    ...identityOf(spec),
    present: true,
    status: worst(issues.map((i) => (i.severity === 'info' ? 'ok' : i.severity))),
    disables: null,
    engine: {
      expected: spec.detailed ? engineText(spec.engine) : '(not fixed by the contract)',
      found: engineText(parsed),
      ok: engineOk,
    },
    sortingKey: { expected: spec.sortingKey, found: foundKey, ok: keyOk },
    columns,
    skipIndexes,
    view: null,
    parts: found.parts.get(spec.fullName) ?? { active: 0, rows: 0 },
    rows: f.totalRows,
    mapping: spec.mapping ?? null,
    issues,
  }
}

/** One object of the contract against what ClickHouse has. */
export function compareObject(spec: ObjectSpec, found: Found): TableReport {
  const f = found.tables.get(spec.fullName)
  if (!f) return missingReport(spec)
  return spec.kind === 'table' ? compareTable(spec, f, found) : compareView(spec, f, found)
}

/** Re-rates a report after a group-level rule changed how serious one of its issues is. */
export function withIssue(report: TableReport, issue: Issue, replaceMissing = false): TableReport {
  const issues = replaceMissing
    ? [issue, ...report.issues.filter((i) => i.code !== 'missing_table')]
    : [...report.issues, issue]
  const status = worst(issues.map((i) => (report.present && i.severity === 'info' ? 'ok' : i.severity)))
  return { ...report, issues, status }
}
