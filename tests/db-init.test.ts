import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { z } from 'zod'
import { setupNotice } from '../components/runs/setup-notice-model'
import { queryRows } from '../lib/clickhouse/query'
import { getConfig } from '../lib/config'
import { runDbInit } from '../lib/setup/db-init'
import { runIndexNames } from '../lib/derived/names'
import { loomTableList, tableNames } from '../lib/loom/tables'
import { getHealth } from '../lib/queries/health'
import { runIndexReady } from '../lib/run-set/run-index'
import { useFreshEngine } from './helpers/engine'

// A fresh data directory stands in for a server nothing was installed on yet: the init command
// runs against it directly, as `npm run db:init` does on a remote server.
useFreshEngine('db-init')

async function tablesNow(): Promise<string[]> {
  const rows = await queryRows(
    "SELECT concat(database, '.', name) AS name FROM system.tables WHERE database NOT IN ('system', 'INFORMATION_SCHEMA', 'information_schema') ORDER BY name",
    {},
    z.object({ name: z.string() }),
  )
  return rows.map((r) => r.name)
}

async function init(options: { history?: boolean; runIndex?: boolean; dryRun?: boolean }) {
  const lines: string[] = []
  const report = await runDbInit({
    history: true,
    runIndex: true,
    dryRun: false,
    ...options,
    log: (l) => lines.push(l),
  })
  return { report, text: lines.join('\n') }
}

async function names() {
  return { t: tableNames(), ix: runIndexNames(getConfig().databases.runs) }
}

describe('the setup notice', () => {
  test('names each missing part, and comes back when a dismissed set changes', async () => {
    const both = { runIndex: false, history: false, command: 'npm run db:init' }
    assert.equal(setupNotice(undefined, null), null)
    assert.equal(setupNotice({ ...both, runIndex: true, history: true }, null), null)
    const n = setupNotice(both, null)!
    assert.deepEqual(
      n.missing.map((m) => m.part),
      ['runIndex', 'history'],
    )
    assert.equal(n.command, 'npm run db:init')
    assert.equal(setupNotice(both, n.key), null, 'dismissed')
    const onlyIndex = setupNotice({ ...both, history: true }, 'history')
    assert.deepEqual(
      onlyIndex?.missing.map((m) => m.part),
      ['runIndex'],
      'a dismissal of another set does not hide it',
    )
  })
})

describe('db:init', () => {
  test('a dry run prints every part with its grants and SQL, and changes nothing', async () => {
    const before = await tablesNow()
    const { report, text } = await init({ dryRun: true })
    assert.deepEqual(await tablesNow(), before)
    assert.deepEqual(report.created, [])
    const { t, ix } = await names()
    for (const expected of [
      t.workingMemory,
      t.audit,
      t.history,
      t.historyView,
      ix.runs,
      ix.meta,
      'Needs:',
      'CREATE TABLE IF NOT EXISTS',
      'dry run',
    ]) {
      assert.ok(text.includes(expected), `dry run output mentions ${expected}`)
    }
  })

  test('--no-history and --no-index skip those parts', async () => {
    const { report, text } = await init({ history: false, runIndex: false })
    const { t, ix } = await names()
    const have = new Set(await tablesNow())
    for (const name of [...loomTableList(t), t.audit, t.revokedSessions]) {
      assert.ok(have.has(name), `${name} created`)
    }
    for (const name of [t.history, t.historyView, ix.runs, ix.meta]) assert.ok(!have.has(name), `${name} not created`)
    assert.equal(report.runIndex, null)
    // What the runs page's setup notice reads: both parts missing.
    assert.deepEqual((await getHealth()).setup, { runIndex: false, history: false, command: 'npm run db:init' })
    assert.match(text, /npm run history:install/)
    assert.match(text, /npm run index:install/)
  })

  test('a full run adds the history capture and the run index to what is there', async () => {
    const { report } = await init({})
    const { t, ix } = await names()
    const have = new Set(await tablesNow())
    for (const name of [t.history, t.historyView, ix.runs, ix.orphans, ix.checkpoints, ix.sessions, ix.meta]) {
      assert.ok(have.has(name), `${name} created`)
      assert.ok(report.created.includes(name), `${name} reported as created`)
    }
    assert.ok(report.existing.includes(t.workingMemory), 'Loom tables from the first run are kept')
    assert.equal(report.runIndex?.backfilled, true)
    assert.equal(await runIndexReady(), true)
    assert.deepEqual((await getHealth()).setup, { runIndex: true, history: true, command: 'npm run db:init' })
  })

  test('a second run is a no-op', async () => {
    const before = await tablesNow()
    const { report, text } = await init({})
    assert.deepEqual(report.created, [])
    assert.equal(report.runIndex?.backfilled, false)
    assert.deepEqual(await tablesNow(), before)
    assert.match(text, /Nothing to do/)
  })
})
