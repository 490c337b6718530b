/**
 * The schema doctor against a deliberately broken schema, in databases of its own (loomx, telx,
 * runsx): missing columns, a renamed column, a wrong sorting key, missing and odd skip indexes,
 * missing tables, a half-installed run index and a history table without its view.
 * Read-only mode keeps the route from creating the missing tables on its way in.
 */
import assert from 'node:assert/strict'
import { before, describe, test } from 'node:test'
import { command } from '../lib/clickhouse/query'
import { auditTableDdl, historyDdl, loomTableDdl } from '../lib/loom/ddl'
import { DERIVED_SCHEMA_VERSION, runIndexNames } from '../lib/derived/names'
import { derivedTables } from '../lib/derived/ddl'
import { tableNames } from '../lib/loom/tables'
import { getSchemaReport } from '../lib/queries/schema-report'
import { parseCreateTable, parseEngine, splitTopLevel } from '../lib/schema/clickhouse-text'
import { schemaContract, tableSpecs } from '../lib/queries/schema-contract'
import { GET as schemaRoute } from '../app/api/schema/route'
import { useFreshEngine } from './helpers/engine'
import { call } from './helpers/routes'
import type { SchemaReport, TableReport } from '../lib/schema/types'

useFreshEngine('schema-doctor', {
  LOOM_DATABASE: 'loomx',
  LOOM_TELEMETRY_DATABASE: 'telx',
  LOOM_RUNS_DATABASE: 'runsx',
  LOOM_RUNS_READ_ONLY: '1',
})

let report: SchemaReport
let routeBody: SchemaReport
const table = (r: SchemaReport, fullName: string): TableReport => {
  const t = r.tables.find((x) => x.fullName === fullName)
  assert.ok(t, `${fullName} is in the report`)
  return t
}

before(async () => {
  const t = tableNames()
  await command('CREATE DATABASE loomx')
  await command('CREATE DATABASE runsx')
  // working_memory: no char_limit, source_trace renamed to `trace`, updated_at without
  // milliseconds, and a sorting key without user_id / session_id.
  await command(`CREATE TABLE loomx.working_memory (
    org String, namespace String, agent String, user_id String, session_id String,
    run_id String, block_key String, content String, version UInt64, is_deleted UInt8 DEFAULT 0,
    actor String, trace String, updated_at DateTime('UTC')
  ) ENGINE = ReplacingMergeTree(version) ORDER BY (org, namespace, agent, run_id, block_key)`)
  // runs exactly as the contract says.
  await command(loomTableDdl(t).find((s) => s.table === t.runs)!.sql)
  // conversation_turns without its bloom_filter index.
  await command(`CREATE TABLE loomx.conversation_turns (
    org String, namespace String, agent String, user_id String, session_id String,
    conversation_id String, run_id String, turn_index UInt32, role LowCardinality(String), content String,
    tool_name String, input_tokens UInt64, output_tokens UInt64, cost_usd Float64, created_at DateTime64(3, 'UTC')
  ) ENGINE = MergeTree ORDER BY (org, namespace, agent, conversation_id, turn_index)`)
  // conversations with a run_id_idx of the wrong type; role as a plain String elsewhere is fine.
  await command(`CREATE TABLE loomx.conversations (
    org String, namespace String, agent String, user_id String, session_id String,
    conversation_id String, run_id String, title String, created_at DateTime64(3, 'UTC'),
    INDEX run_id_idx run_id TYPE minmax GRANULARITY 1
  ) ENGINE = ReplacingMergeTree(created_at) ORDER BY (org, namespace, agent, conversation_id)`)
  // memory with an equivalent index under another name, and status as a plain String.
  await command(`CREATE TABLE loomx.memory (
    org String, namespace String, agent String, user_id String, session_id String,
    memory_key String, memory_id String, memory_type LowCardinality(String), value String, run_id String,
    version UInt64, status String, confidence Float64, pinned UInt8, tags Array(String), actor String,
    created_at DateTime64(3, 'UTC'), updated_at DateTime64(3, 'UTC'),
    INDEX idx_run run_id TYPE bloom_filter GRANULARITY 4
  ) ENGINE = ReplacingMergeTree(version) ORDER BY (org, namespace, agent, user_id, session_id, memory_key)`)
  // context_blobs and the telemetry database are missing altogether.
  // audit_log as a plain MergeTree sorted by time only.
  await command(`CREATE TABLE runsx.audit_log (
    at DateTime64(3, 'UTC'), operator String, action LowCardinality(String), reason String,
    org String, namespace String, agent String, user_id String, session_id String, run_id String, block_key String,
    before_version UInt64, after_version UInt64, before_content String, after_content String, request_id String,
    batch_id String, restored_version String
  ) ENGINE = MergeTree ORDER BY at`)
  // The history table without its view; one table of the run index and an older meta table.
  await command(historyDdl(t)[0])
  await command(`CREATE TABLE runsx.run_index_sessions (org String, namespace String, run_id String, agent String, user_id String, session_id String)
    ENGINE = ReplacingMergeTree ORDER BY (org, namespace, run_id, agent, user_id, session_id)`)
  await command(
    `CREATE TABLE runsx.run_index_meta (installed_at DateTime64(3, 'UTC')) ENGINE = MergeTree ORDER BY installed_at`,
  )
  // Three versions of one block in three parts, and another block: 4 rows, 2 blocks.
  await command('SYSTEM STOP MERGES loomx.working_memory')
  for (const v of [1, 2, 3]) {
    await command(
      `INSERT INTO loomx.working_memory (org, namespace, agent, user_id, session_id, run_id, block_key, content, version, actor, trace, updated_at)
       VALUES ('acme', 'prod', 'a', 'u', 's', 'r1', 'checkpoint', {c:String}, {v:UInt64}, 'a', 'h/1', now())`,
      { c: `state ${v}`, v },
    )
  }
  await command(
    `INSERT INTO loomx.working_memory (org, namespace, agent, user_id, session_id, run_id, block_key, content, version, actor, trace, updated_at)
     VALUES ('acme', 'prod', 'a', 'u', 's', 'r1', 'notes', 'n', 1, 'a', 'h/1', now())`,
  )

  report = await getSchemaReport()
  const res = await call(schemaRoute, '/api/schema')
  assert.equal(res.status, 200, JSON.stringify(res.body))
  routeBody = res.body
})

describe('schema doctor on a broken schema', () => {
  test('overall: problems, with the configured database names', () => {
    assert.equal(report.status, 'problems')
    assert.deepEqual(
      report.databases.map((d) => [d.role, d.name, d.present]),
      [
        ['loom', 'loomx', true],
        ['telemetry', 'telx', false],
        ['runs', 'runsx', true],
      ],
    )
    assert.ok(report.tables.every((t) => ['loomx', 'telx', 'runsx'].includes(t.database)))
    assert.equal(report.summary.tablesExpected, report.tables.length)
    assert.equal(report.summary.tablesPresent, report.tables.filter((t) => t.present).length)
    // working_memory, runs, conversations, turns, memory, audit, history, run_index_sessions
    assert.equal(report.summary.tablesPresent, 8)
    assert.deepEqual(report.databases.find((d) => d.role === 'runs')!.otherTables, ['run_index_meta'])
  })

  test('working_memory: the wrong sorting key, each missing column, the renamed one, the type change', () => {
    const wm = table(report, 'loomx.working_memory')
    assert.equal(wm.status, 'problem')
    assert.deepEqual(wm.engine, {
      expected: 'ReplacingMergeTree(version)',
      found: 'ReplacingMergeTree(version)',
      ok: true,
    })
    assert.deepEqual(wm.sortingKey, {
      expected: ['org', 'namespace', 'agent', 'user_id', 'session_id', 'run_id', 'block_key'],
      found: ['org', 'namespace', 'agent', 'run_id', 'block_key'],
      ok: false,
    })
    const key = wm.issues.find((i) => i.code === 'sorting_key')!
    assert.equal(key.severity, 'problem')
    assert.match(
      key.message,
      /^Sorted by \(org, namespace, agent, run_id, block_key\), the contract says \(org, namespace, agent, user_id, session_id, run_id, block_key\); not in the key: user_id, session_id/,
    )
    assert.deepEqual(wm.columns!.missing, [
      { name: 'char_limit', type: 'UInt32' },
      { name: 'source_trace', type: 'String', renamedTo: 'trace' },
    ])
    assert.deepEqual(wm.columns!.extra, [{ name: 'trace', type: 'String' }])
    assert.deepEqual(wm.columns!.typeDiffers, [
      { name: 'updated_at', expected: "DateTime64(3, 'UTC')", found: "DateTime('UTC')", compatible: false },
    ])
    const charLimit = wm.issues.find((i) => i.subject === 'char_limit')!
    assert.equal(charLimit.severity, 'problem')
    assert.deepEqual(charLimit.fix, [
      'ALTER TABLE loomx.working_memory ADD COLUMN IF NOT EXISTS char_limit UInt32 DEFAULT 4096',
    ])
    const trace = wm.issues.find((i) => i.subject === 'source_trace')!
    assert.match(trace.message, /trace \(String\) may be it under another name/)
    assert.equal(trace.fix, undefined)
    assert.equal(wm.issues.find((i) => i.subject === 'updated_at')!.severity, 'warning')
  })

  test('working_memory: parts and unmerged versions are counted', () => {
    const wm = table(report, 'loomx.working_memory')
    assert.deepEqual(wm.parts, { active: 4, rows: 4 })
    assert.deepEqual(report.workingMemory, {
      table: 'loomx.working_memory',
      activeParts: 4,
      physicalRows: 4,
      blocks: 2,
      unmergedVersions: 2,
      note: null,
    })
  })

  test('a missing bloom_filter index comes with the exact ALTER statements', () => {
    const turns = table(report, 'loomx.conversation_turns')
    assert.equal(turns.status, 'warning')
    assert.deepEqual(turns.skipIndexes, [
      {
        name: 'run_id_idx',
        expr: 'run_id',
        type: 'bloom_filter',
        granularity: 1,
        state: 'missing',
        found: null,
        fix: [
          'ALTER TABLE loomx.conversation_turns ADD INDEX run_id_idx run_id TYPE bloom_filter GRANULARITY 1',
          'ALTER TABLE loomx.conversation_turns MATERIALIZE INDEX run_id_idx',
        ],
      },
    ])
    const issue = turns.issues.find((i) => i.code === 'missing_index')!
    assert.equal(issue.severity, 'warning')
    assert.deepEqual(issue.fix, turns.skipIndexes[0].fix)
  })

  test('an index of the wrong type is flagged; an equivalent one under another name is accepted', () => {
    const conv = table(report, 'loomx.conversations')
    assert.equal(conv.skipIndexes[0].state, 'differs')
    assert.deepEqual(conv.skipIndexes[0].found, { name: 'run_id_idx', expr: 'run_id', type: 'minmax', granularity: 1 })
    assert.deepEqual(conv.skipIndexes[0].fix, [
      'ALTER TABLE loomx.conversations DROP INDEX run_id_idx',
      'ALTER TABLE loomx.conversations ADD INDEX run_id_idx run_id TYPE bloom_filter GRANULARITY 1',
      'ALTER TABLE loomx.conversations MATERIALIZE INDEX run_id_idx',
    ])
    const memory = table(report, 'loomx.memory')
    assert.equal(memory.skipIndexes[0].state, 'equivalent')
    assert.deepEqual(memory.skipIndexes[0].found, {
      name: 'idx_run',
      expr: 'run_id',
      type: 'bloom_filter',
      granularity: 4,
    })
    // status String instead of LowCardinality(String): compatible, not a warning.
    assert.deepEqual(memory.columns!.typeDiffers, [
      { name: 'status', expected: 'LowCardinality(String)', found: 'String', compatible: true },
    ])
    assert.equal(memory.status, 'ok')
  })

  test('a table exactly as the contract says is ok', () => {
    const runs = table(report, 'loomx.runs')
    assert.equal(runs.status, 'ok')
    assert.deepEqual(runs.issues, [])
    assert.deepEqual([runs.columns!.expected, runs.columns!.found], [28, 28])
  })

  test('a MergeTree sorted differently is a warning (slower reads, same answers)', () => {
    const audit = table(report, 'runsx.audit_log')
    assert.equal(audit.status, 'warning')
    assert.equal(audit.issues[0].code, 'sorting_key')
    assert.equal(audit.issues[0].severity, 'warning')
    assert.deepEqual(audit.sortingKey!.found, ['at'])
  })

  test('missing tables say what they turn off', () => {
    const blobs = table(report, 'loomx.context_blobs')
    assert.equal(blobs.present, false)
    assert.equal(blobs.status, 'warning')
    const trace = table(report, 'telx.search_trace_log')
    assert.equal(trace.present, false)
    assert.equal(trace.status, 'info')
    const features = new Map(report.disabled.map((d) => [d.table, d.feature]))
    assert.match(features.get('telx.search_trace_log')!, /^Searches tab: the trace log is off or missing/)
    assert.match(features.get('loomx.context_blobs')!, /^Blobs tab/)
    assert.match(features.get('runsx.working_memory_history_mv')!, /^History capture/)
    assert.match(features.get('runsx.run_index*')!, /^Runs list: read with the slower union/)
    assert.ok(!features.has('loomx.working_memory'))
  })

  test('history: the table without its view is not capturing', () => {
    assert.equal(report.history.tablePresent, true)
    assert.equal(report.history.viewPresent, false)
    assert.equal(report.history.installed, false)
    assert.equal(report.history.capturing, false)
    assert.equal(report.history.rows, 0)
    assert.equal(report.history.oldestCapturedAt, null)
    assert.equal(report.history.retentionDays, 90)
    const view = table(report, 'runsx.working_memory_history_mv')
    assert.equal(view.status, 'warning')
    assert.match(view.issues[0].message, /runsx\.working_memory_history no longer receives new versions/)
  })

  test('run index: one of its objects and an older meta table: incomplete, not read', async () => {
    const ix = runIndexNames('runsx')
    assert.equal(report.runIndex.state, 'incomplete')
    assert.equal(report.runIndex.present, 1)
    // Every derived table, plus the marker.
    assert.equal(report.runIndex.expected, derivedTables('runsx').length + 1)
    assert.equal(report.runIndex.meta, `runsx.run_index_meta_v${DERIVED_SCHEMA_VERSION}`)
    assert.deepEqual(report.runIndex.olderInstalls, ['runsx.run_index_meta'])
    const meta = table(report, ix.meta)
    assert.equal(meta.status, 'warning')
    assert.equal(meta.issues[0].code, 'install_incomplete')
    assert.equal(table(report, 'runsx.run_index_sessions').status, 'ok')
  })

  test('GET /api/schema answers the same report', () => {
    assert.equal(routeBody.status, 'problems')
    assert.deepEqual(
      routeBody.tables.map((t) => [t.fullName, t.status]),
      report.tables.map((t) => [t.fullName, t.status]),
    )
    assert.deepEqual(routeBody.summary, report.summary)
    assert.match(routeBody.checkedAt, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/)
  })
})

describe('engine and key parsing', () => {
  test('replicated and shared engines compare by family and version column', async () => {
    assert.deepEqual(
      parseEngine(
        'SharedReplacingMergeTree',
        "SharedReplacingMergeTree('/clickhouse/tables/{uuid}/{shard}', '{replica}', version) ORDER BY (a, b)",
      ),
      {
        family: 'ReplacingMergeTree',
        args: ['version'],
      },
    )
    assert.deepEqual(parseEngine('ReplicatedMergeTree', "ReplicatedMergeTree('/p', 'r') ORDER BY a"), {
      family: 'MergeTree',
      args: [],
    })
    // ClickHouse Cloud: every MergeTree table is a Shared one.
    assert.deepEqual(
      parseEngine(
        'SharedMergeTree',
        "SharedMergeTree('/clickhouse/tables/{uuid}/{shard}', '{replica}') PARTITION BY toYYYYMM(at) ORDER BY a",
      ),
      { family: 'MergeTree', args: [] },
    )
    assert.deepEqual(parseEngine('MergeTree', 'MergeTree ORDER BY a'), { family: 'MergeTree', args: [] })
    assert.deepEqual(splitTopLevel("a, toDate(b, 'x,y'), c"), ['a', "toDate(b, 'x,y')", 'c'])
  })

  test('the DDL reader sees in each Loom CREATE TABLE what the contract spells out', async () => {
    const t = tableNames()
    const statements = [
      ...loomTableDdl(t),
      { table: t.audit, sql: auditTableDdl(t) },
      { table: t.history, sql: historyDdl(t)[0] },
    ]
    const specs = new Map(tableSpecs(schemaContract()).map((s) => [s.fullName, s]))
    for (const s of statements) {
      const spec = specs.get(s.table)!
      assert.deepEqual(
        parseCreateTable(s.sql),
        { engine: spec.engine, sortingKey: spec.sortingKey, columns: spec.columns, skipIndexes: spec.skipIndexes },
        s.table,
      )
    }
  })
})
