import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { parseCreateTable } from '../lib/schema/clickhouse-text'
import { auditLogTable } from '../lib/tables/audit-log'
import { createTableSql } from '../lib/tables/create-table'
import type { TableDeclaration } from '../lib/tables/declaration'
import { LOOM_TABLES } from '../lib/tables/loom-tables'
import { revokedSessionsTable } from '../lib/tables/revoked-sessions'
import { historyTtl, workingMemoryHistoryTable } from '../lib/tables/working-memory-history'

const ALL: TableDeclaration[] = [...LOOM_TABLES, auditLogTable, revokedSessionsTable, workingMemoryHistoryTable]

describe('the table catalogue', () => {
  test('each CREATE statement reads back as its declaration', () => {
    for (const table of ALL) {
      const parsed = parseCreateTable(createTableSql(table, `db.${table.key}`))
      assert.ok(parsed, table.key)
      assert.deepEqual(parsed.columns, table.columns, table.key)
      assert.deepEqual(parsed.engine, table.engine, table.key)
      assert.deepEqual(parsed.sortingKey, table.sortingKey, table.key)
      assert.deepEqual(parsed.skipIndexes, table.skipIndexes, table.key)
    }
  })

  test('a TTL is written as declared, or as the install chooses', () => {
    assert.match(createTableSql(revokedSessionsTable, 'db.r'), /\nTTL toDateTime\(expires_at\)$/)
    assert.match(
      createTableSql(workingMemoryHistoryTable, 'db.h', { ttl: historyTtl(7.9) }),
      /\nTTL toDateTime\(updated_at\) \+ INTERVAL 7 DAY$/,
    )
    assert.doesNotMatch(createTableSql(auditLogTable, 'db.a'), /TTL/)
  })

  test('every table has one declaration, and sorts by columns it has', () => {
    assert.equal(new Set(ALL.map((t) => t.key)).size, ALL.length)
    for (const table of ALL) {
      const names = new Set(table.columns.map((c) => c.name))
      for (const k of table.sortingKey) assert.ok(names.has(k), `${table.key}: ${k}`)
    }
  })
})
