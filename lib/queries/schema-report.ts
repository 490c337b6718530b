/**
 * The schema doctor: what ClickHouse has (system.databases, tables, columns, skip indexes, parts)
 * against the data contract, with what each gap turns off and the statements that would fix it.
 * Reads metadata only, plus two aggregate scans: working memory's unmerged versions and the
 * history table's span.
 */
import { z } from 'zod'
import { getConfig } from '../config'
import { selectRows } from '../clickhouse/query'
import { param, sql, trusted } from '../clickhouse/sql'
import { nullableChTimeToIso } from '../tables/time'
import { AppError } from '../errors'
import {
  compareObject,
  withIssue,
  type Found,
  type FoundColumn,
  type FoundIndex,
  type FoundParts,
  type FoundTable,
} from '../schema/compare'
import { schemaContract } from './schema-contract'
import { workingMemoryTable } from '../tables/working-memory'
import { source } from '../loom/tables'
import { SharedResult } from '../server/shared-result'
import type {
  Contract,
  DatabaseState,
  HistoryState,
  RunIndexState,
  SchemaReport,
  Severity,
  TableReport,
  WorkingMemoryState,
} from '../schema/types'

/** The duplicate count scans working memory: bounded, so a huge table degrades to "not counted". */
const DUPLICATES_BUDGET_SECONDS = 10

const count = z.coerce.number()

async function readFound(
  dbs: string[],
  signal?: AbortSignal,
): Promise<{ found: Found; databases: Map<string, string> }> {
  const inDbs = param('dbs', 'Array(String)', dbs)
  const [databases, tables, columns, indexes, parts] = await Promise.all([
    selectRows(
      sql`SELECT name, engine FROM system.databases WHERE name IN ${inDbs}`,
      z.object({ name: z.string(), engine: z.string() }),
      { signal },
    ),
    selectRows(
      sql`SELECT database, name, engine, engine_full, sorting_key, total_rows, create_table_query,
          arrayMap((d, t) -> concat(d, '.', t), dependencies_database, dependencies_table) AS dependents
       FROM system.tables WHERE database IN ${inDbs} AND NOT is_temporary`,
      z.object({
        database: z.string(),
        name: z.string(),
        engine: z.string(),
        engine_full: z.string(),
        sorting_key: z.string(),
        total_rows: count.nullable(),
        create_table_query: z.string(),
        dependents: z.array(z.string()),
      }),
      { signal },
    ),
    selectRows(
      sql`SELECT database, table, name, type FROM system.columns WHERE database IN ${inDbs} ORDER BY database, table, position`,
      z.object({ database: z.string(), table: z.string(), name: z.string(), type: z.string() }),
      { signal },
    ),
    selectRows(
      sql`SELECT database, table, name, expr, type, granularity FROM system.data_skipping_indices WHERE database IN ${inDbs}`,
      z.object({
        database: z.string(),
        table: z.string(),
        name: z.string(),
        expr: z.string(),
        type: z.string(),
        granularity: count,
      }),
      { signal },
    ),
    selectRows(
      sql`SELECT database, table, count() AS part_count, sum(rows) AS part_rows FROM system.parts
       WHERE active AND database IN ${inDbs} GROUP BY database, table`,
      z.object({ database: z.string(), table: z.string(), part_count: count, part_rows: count }),
      { signal },
    ),
  ])
  const group = <T, R>(rows: T[], key: (r: T) => string, map: (r: T) => R) => {
    const out = new Map<string, R[]>()
    for (const r of rows) {
      const k = key(r)
      if (!out.has(k)) out.set(k, [])
      out.get(k)!.push(map(r))
    }
    return out
  }
  const found: Found = {
    tables: new Map(
      tables.map((t): [string, FoundTable] => [
        `${t.database}.${t.name}`,
        {
          database: t.database,
          name: t.name,
          engine: t.engine,
          engineFull: t.engine_full,
          sortingKey: t.sorting_key,
          totalRows: t.total_rows,
          createTableQuery: t.create_table_query,
          dependents: t.dependents,
        },
      ]),
    ),
    columns: group(
      columns,
      (c) => `${c.database}.${c.table}`,
      (c): FoundColumn => ({ name: c.name, type: c.type }),
    ),
    indexes: group(
      indexes,
      (i) => `${i.database}.${i.table}`,
      (i): FoundIndex => ({ name: i.name, expr: i.expr, type: i.type, granularity: i.granularity }),
    ),
    parts: new Map(
      parts.map((p): [string, FoundParts] => [`${p.database}.${p.table}`, { active: p.part_count, rows: p.part_rows }]),
    ),
  }
  return { found, databases: new Map(databases.map((d) => [d.name, d.engine])) }
}

/** Physical rows vs distinct blocks: the versions merges have not collapsed yet. */
async function workingMemoryState(
  report: TableReport | undefined,
  signal?: AbortSignal,
): Promise<WorkingMemoryState | null> {
  if (!report?.present) return null
  const budget = Math.min(DUPLICATES_BUDGET_SECONDS, getConfig().clickhouse.maxExecutionTime)
  const base = {
    table: report.fullName,
    activeParts: report.parts?.active ?? 0,
    physicalRows: report.parts?.rows ?? report.rows ?? 0,
  }
  const missingKey = workingMemoryTable.sortingKey.filter((k) => report.columns?.missing.some((m) => m.name === k))
  if (missingKey.length > 0) {
    return {
      ...base,
      blocks: null,
      unmergedVersions: null,
      note: `not counted: the table has no ${missingKey.join(', ')} column`,
    }
  }
  try {
    const [row] = await selectRows(
      sql`SELECT count() AS physical, uniqExact(${trusted(workingMemoryTable.sortingKey.join(', '))}) AS blocks FROM ${trusted(source(report.fullName))}`,
      z.object({ physical: count, blocks: count }),
      { signal, settings: { max_execution_time: budget } },
    )
    return {
      ...base,
      physicalRows: row.physical,
      blocks: row.blocks,
      unmergedVersions: row.physical - row.blocks,
      note: null,
    }
  } catch (err) {
    if (err instanceof AppError && err.code === 'timeout') {
      return {
        ...base,
        blocks: null,
        unmergedVersions: null,
        note: `not counted: the scan took longer than ${budget} s`,
      }
    }
    throw err
  }
}

function retentionDays(createQuery: string): number | null {
  const m = /TTL\s+.*?\+\s*(?:toIntervalDay\((\d+)\)|INTERVAL\s+(\d+)\s+DAY)/i.exec(createQuery)
  return m ? Number(m[1] ?? m[2]) : null
}

async function historyState(
  table: TableReport,
  view: TableReport,
  found: Found,
  signal?: AbortSignal,
): Promise<HistoryState> {
  const installed = table.present && view.present && view.view?.foundTarget === table.fullName
  const capturing = installed && !!view.view?.sourceLinked
  let rows: number | null = null
  let oldest: string | null = null
  let newest: string | null = null
  const hasCapturedAt = table.present && !table.columns?.missing.some((c) => c.name === 'captured_at')
  if (table.present) {
    const from = trusted(table.fullName)
    const [row] = await selectRows(
      hasCapturedAt
        ? sql`SELECT count() AS n, if(count() = 0, NULL, toString(min(captured_at))) AS oldest, if(count() = 0, NULL, toString(max(captured_at))) AS newest FROM ${from}`
        : sql`SELECT count() AS n, NULL AS oldest, NULL AS newest FROM ${from}`,
      z.object({ n: count, oldest: z.string().nullable(), newest: z.string().nullable() }),
      { signal },
    )
    rows = row.n
    oldest = nullableChTimeToIso(row.oldest)
    newest = nullableChTimeToIso(row.newest)
  }
  const created = found.tables.get(table.fullName)?.createTableQuery ?? ''
  const summary = capturing
    ? rows
      ? 'Capturing: every working-memory insert since the oldest capture is kept, whatever merges do to the source table.'
      : 'Capturing: installed, no working-memory write since then.'
    : installed
      ? `Installed but not capturing: the view is not fed by ${view.view?.source}.`
      : table.present
        ? `The history table is there but its view is not: new versions are not captured (run npm run history:install).`
        : view.present
          ? `The view exists without its table: inserts into working memory fail until ${table.fullName} is created.`
          : 'Not installed: the Checkpoint tab shows only the versions merges have not collapsed yet. Install it with npm run history:install.'
  return {
    table: table.fullName,
    view: view.fullName,
    tablePresent: table.present,
    viewPresent: view.present,
    installed,
    capturing,
    rows,
    oldestCapturedAt: oldest,
    newestCapturedAt: newest,
    retentionDays: retentionDays(created),
    summary,
  }
}

/**
 * Group rules the per-object comparison cannot see: a run index that is read while incomplete,
 * an install left half-done, a history table whose view is gone.
 */
function applyGroupRules(
  contract: Contract,
  tables: TableReport[],
  found: Found,
): { tables: TableReport[]; runIndex: RunIndexState } {
  const byKey = new Map(tables.map((t) => [t.key, t]))
  const ix = tables.filter((t) => t.group === 'runIndex')
  const meta = byKey.get('runIndex.meta')
  const presentIx = ix.filter((t) => t.present).length
  const prefix = `${contract.databases.runs}.run_index_meta`
  const olderInstalls = [...found.tables.keys()].filter((n) => n.startsWith(prefix) && n !== meta?.fullName)
  let state: RunIndexState['state'] = 'absent'
  if (meta?.present) {
    state = 'installed'
    for (const t of ix) {
      if (t.present) continue
      byKey.set(
        t.key,
        withIssue(
          t,
          {
            severity: 'problem',
            code: 'missing_table',
            message: `${t.fullName} is missing while the run index is marked installed: the runs list reads a broken index. Re-run npm run index:install.`,
          },
          true,
        ),
      )
    }
  } else if (presentIx > 0 && meta) {
    state = 'incomplete'
    byKey.set(
      meta.key,
      withIssue(
        meta,
        {
          severity: 'warning',
          code: 'install_incomplete',
          message: `${presentIx} of ${ix.length} run-index objects exist but ${meta.fullName} does not: an install stopped (or is running) and the runs list does not use the index. Run npm run index:install.`,
        },
        true,
      ),
    )
  }
  const history = byKey.get('history')
  const historyView = byKey.get('historyView')
  if (history?.present && historyView && !historyView.present) {
    byKey.set(
      historyView.key,
      withIssue(
        historyView,
        {
          severity: 'warning',
          code: 'missing_table',
          message: `${historyView.fullName} is missing: ${history.fullName} no longer receives new versions (run npm run history:install).`,
        },
        true,
      ),
    )
  }
  const summary =
    state === 'installed'
      ? `Installed (${presentIx} of ${ix.length} objects): the runs list reads it.`
      : state === 'incomplete'
        ? `Incomplete (${presentIx} of ${ix.length} objects): the runs list uses the union query until npm run index:install finishes.`
        : `Not installed${olderInstalls.length ? ` (an older version is: ${olderInstalls.join(', ')})` : ''}: the runs list uses the union query. Install with npm run index:install.`
  return {
    tables: tables.map((t) => byKey.get(t.key) ?? t),
    runIndex: { state, meta: meta?.fullName ?? '', present: presentIx, expected: ix.length, olderInstalls, summary },
  }
}

function disabledFeatures(tables: TableReport[]): SchemaReport['disabled'] {
  const out: SchemaReport['disabled'] = []
  const seen = new Set<string>()
  const missing = new Set(tables.filter((t) => !t.present).map((t) => t.key))
  for (const t of tables) {
    if (t.present || !t.disables) continue
    // A missing history table already says what its view's absence would.
    if (t.key === 'historyView' && missing.has('history')) continue
    if (seen.has(t.disables)) continue
    seen.add(t.disables)
    const severity = t.status === 'ok' ? 'info' : (t.status as Severity)
    out.push({ table: t.group === 'runIndex' ? `${t.database}.run_index*` : t.fullName, feature: t.disables, severity })
  }
  return out
}

/** Reads the whole report; full-table counts included, so callers go through `cachedSchemaReport`. */
export async function getSchemaReport(signal?: AbortSignal): Promise<SchemaReport> {
  const config = getConfig()
  const contract = schemaContract(config.databases)
  const dbNames = [config.databases.loom, config.databases.telemetry, config.databases.runs]
  const [[version], { found, databases }] = await Promise.all([
    selectRows(sql`SELECT version() AS v`, z.object({ v: z.string() }), { signal }),
    // A mapped table may live in a database of its own.
    readFound([...new Set([...dbNames, ...contract.objects.map((o) => o.database)])], signal),
  ])
  const compared = contract.objects.map((spec) => compareObject(spec, found))
  const { tables, runIndex } = applyGroupRules(contract, compared, found)
  const byKey = new Map(tables.map((t) => [t.key, t]))
  const [workingMemory, history] = await Promise.all([
    workingMemoryState(byKey.get('workingMemory'), signal),
    historyState(byKey.get('history')!, byKey.get('historyView')!, found, signal),
  ])
  const known = new Set(contract.objects.map((o) => o.fullName))
  const roles: DatabaseState['role'][] = ['loom', 'telemetry', 'runs']
  const databaseStates: DatabaseState[] = roles.map((role) => {
    const name = config.databases[role]
    return {
      role,
      name,
      present: databases.has(name),
      engine: databases.get(name) ?? null,
      otherTables: [...found.tables.keys()]
        .filter((n) => n.startsWith(`${name}.`) && !known.has(n))
        .map((n) => n.slice(name.length + 1))
        .sort(),
    }
  })
  const issues = tables.flatMap((t) => t.issues)
  const countOf = (s: Severity) => issues.filter((i) => i.severity === s).length
  const problems = countOf('problem')
  const warnings = countOf('warning')
  return {
    status: problems > 0 ? 'problems' : warnings > 0 ? 'warnings' : 'ok',
    checkedAt: new Date().toISOString(),
    mode: config.mode,
    clickhouseVersion: version?.v ?? null,
    summary: {
      problems,
      warnings,
      info: countOf('info'),
      tablesExpected: tables.length,
      tablesPresent: tables.filter((t) => t.present).length,
    },
    databases: databaseStates,
    tables,
    workingMemory,
    history,
    runIndex,
    mapping: {
      source: config.schemaMapSource ?? null,
      tables: contract.objects.flatMap((o) => (o.kind === 'table' && o.mapping ? [o.mapping] : [])),
    },
    disabled: disabledFeatures(tables),
  }
}

const SCHEMA_REPORT_TTL_MS = 5 * 60_000
const SCHEMA_REPORT_MIN_REFRESH_MS = 10_000
const g = globalThis as typeof globalThis & { __loomRunsSchemaReport?: SharedResult<SchemaReport> }

/**
 * The report, computed at most once per five minutes (or per ten seconds when asked to
 * refresh), and once for any number of viewers asking at the same time. Its counts scan
 * whole tables, so a viewer must not be able to make every page load pay for them.
 */
export async function cachedSchemaReport(
  options: { refresh?: boolean } = {},
): Promise<SchemaReport & { cached: boolean }> {
  // Not tied to one request's signal: the computation is shared by everyone waiting for it.
  g.__loomRunsSchemaReport ??= new SharedResult(
    () => getSchemaReport(),
    SCHEMA_REPORT_TTL_MS,
    SCHEMA_REPORT_MIN_REFRESH_MS,
  )
  const { data, fresh } = await g.__loomRunsSchemaReport.get({ refresh: options.refresh })
  return { ...data, cached: !fresh }
}
