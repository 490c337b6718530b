/**
 * The schema doctor against the schema lib/loom/ddl.ts creates: it must find nothing wrong, or
 * the contract (lib/queries/schema-contract.ts) and the DDL have drifted apart. Also counts working
 * memory's unmerged versions (merges stopped) and the history table's span.
 */
import assert from 'node:assert/strict'
import { before, describe, test } from 'node:test'
import { command } from '../lib/clickhouse/query'
import { createMissingSchema, installRunIndex } from '../lib/setup/init'
import { LOOM_COLUMNS } from '../lib/tables/schema-map'
import { wmSet } from '../lib/loom/working-memory'
import { getSchemaReport } from '../lib/queries/schema-report'
import { schemaContract, tableSpecs } from '../lib/queries/schema-contract'
import { LOOM_TABLE_KEYS } from '../lib/tables/table-keys'
import { GET as schemaRoute } from '../app/api/schema/route'
import { useFreshEngine } from './helpers/engine'
import { call } from './helpers/routes'
import type { SchemaReport } from '../lib/schema/types'

useFreshEngine('schema-doctor-complete')

let withoutIndex: SchemaReport

const notOk = (r: SchemaReport) =>
  r.tables.filter((t) => t.status !== 'ok').map((t) => ({ table: t.fullName, issues: t.issues.map((i) => i.message) }))

before(async () => {
  await createMissingSchema({ history: true })
  withoutIndex = await getSchemaReport()
  await command('SYSTEM STOP MERGES loom.working_memory')
  await installRunIndex()
  const ref = {
    org: 'acme',
    namespace: 'prod',
    agent: 'a',
    userId: '',
    sessionId: '',
    runId: 'r1',
    blockKey: 'checkpoint',
  }
  for (let i = 1; i <= 3; i++) {
    await wmSet(ref, `done ${i}`, {
      actor: 'a',
      sourceTrace: 'h/1',
      now: () => new Date(`2026-11-20T10:0${i}:00.000Z`),
    })
  }
  await wmSet({ ...ref, blockKey: 'notes' }, 'n', {
    actor: 'a',
    sourceTrace: 'h/1',
    now: () => new Date('2026-11-20T10:05:00.000Z'),
  })
})

describe('schema doctor on the schema the DDL creates', () => {
  test('history on, run index not installed: no problems, no warnings; the index is reported absent', () => {
    assert.deepEqual(
      notOk(withoutIndex).filter((t) => !t.table.startsWith('loom_runs.run_index')),
      [],
    )
    assert.equal(withoutIndex.status, 'ok')
    assert.equal(withoutIndex.summary.problems, 0)
    assert.equal(withoutIndex.summary.warnings, 0)
    assert.equal(withoutIndex.runIndex.state, 'absent')
    assert.equal(withoutIndex.runIndex.present, 0)
    assert.deepEqual(
      withoutIndex.disabled.map((d) => [d.table, d.severity]),
      [['loom_runs.run_index*', 'info']],
    )
    assert.equal(withoutIndex.history.installed, true)
    assert.equal(withoutIndex.history.rows, 0)
    assert.equal(withoutIndex.workingMemory!.unmergedVersions, 0)
  })

  test('everything installed: every object present and ok, nothing disabled', async () => {
    const report = await getSchemaReport()
    const expected = schemaContract().objects.length
    // 7 Loom tables, audit, history table and view, and the run index (at least 4 tables, 4 views, its marker).
    assert.ok(expected >= 19, String(expected))
    assert.deepEqual(notOk(report), [])
    assert.equal(report.status, 'ok')
    assert.deepEqual(report.summary, {
      problems: 0,
      warnings: 0,
      info: 0,
      tablesExpected: expected,
      tablesPresent: expected,
    })
    assert.deepEqual(report.disabled, [])
    assert.equal(report.runIndex.state, 'installed')
    assert.deepEqual(report.runIndex.olderInstalls, [])
    assert.deepEqual(
      report.databases.map((d) => [d.name, d.present, d.otherTables]),
      [
        ['loom', true, []],
        ['loom_telemetry', true, []],
        ['loom_runs', true, []],
      ],
    )
    for (const t of report.tables.filter((x) => x.kind === 'table')) {
      assert.equal(t.engine.ok, true, t.fullName)
      assert.equal(t.sortingKey!.ok, true, t.fullName)
      assert.deepEqual(t.columns!.missing, [], t.fullName)
      assert.deepEqual(t.columns!.extra, [], t.fullName)
      assert.ok(
        t.skipIndexes.every((i) => i.state === 'ok'),
        t.fullName,
      )
    }
    assert.deepEqual(
      report.tables.filter((t) => t.skipIndexes.length > 0).map((t) => t.name),
      ['conversations', 'conversation_turns', 'memory', 'context_blobs'],
    )
    for (const v of report.tables.filter((x) => x.kind === 'materializedView')) {
      assert.equal(v.view!.foundTarget, v.view!.expectedTarget, v.fullName)
      assert.equal(v.view!.sourceLinked, true, v.fullName)
    }
  })

  test('working memory: four parts, four rows, two blocks, two unmerged versions', async () => {
    const report = await getSchemaReport()
    assert.deepEqual(report.workingMemory, {
      table: 'loom.working_memory',
      activeParts: 4,
      physicalRows: 4,
      blocks: 2,
      unmergedVersions: 2,
      note: null,
    })
    const wm = report.tables.find((t) => t.key === 'workingMemory')!
    assert.deepEqual(wm.parts, { active: 4, rows: 4 })
    assert.equal(wm.rows, 4)
  })

  test('history: capturing, with its row count and span', async () => {
    const report = await getSchemaReport()
    const h = report.history
    assert.equal(h.installed, true)
    assert.equal(h.capturing, true)
    assert.equal(h.rows, 4)
    assert.equal(h.retentionDays, 90)
    assert.match(h.oldestCapturedAt!, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/)
    assert.ok(h.newestCapturedAt! >= h.oldestCapturedAt!)
    // captured_at is when the copy was made (just now), not the rows' own updated_at (2026-11-20).
    assert.ok(Math.abs(Date.now() - Date.parse(h.newestCapturedAt!)) < 600_000, h.newestCapturedAt!)
  })

  test('GET /api/schema returns the report as JSON', async () => {
    const res = await call(schemaRoute, '/api/schema')
    assert.equal(res.status, 200)
    assert.equal(res.body.status, 'ok')
    assert.equal(res.body.mode, 'embedded')
    assert.match(res.body.clickhouseVersion, /^\d+\.\d+/)
    assert.equal(res.body.tables.length, res.body.summary.tablesExpected)
    assert.equal(res.body.summary.tablesPresent, res.body.summary.tablesExpected)
    assert.equal(res.body.workingMemory.unmergedVersions, 2)
    assert.equal(res.body.history.rows, 4)
  })
})

describe('the schema mapping knows the contract', () => {
  test("its list of each Loom table's columns is the contract's", async () => {
    const specs = tableSpecs(schemaContract())
    for (const [name, key] of Object.entries(LOOM_TABLE_KEYS)) {
      const spec = specs.find((s) => s.key === key)
      assert.ok(spec, `contract has ${key}`)
      assert.deepEqual(
        [...LOOM_COLUMNS[name as keyof typeof LOOM_COLUMNS]],
        spec.columns.map((c) => c.name),
        name,
      )
    }
  })
})
