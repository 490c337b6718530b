/**
 * Reads run under ClickHouse's `readonly` setting: a statement sent down a read path that would
 * write is refused by the engine and changes nothing, and the setting does not outlive the read
 * (the console's own writes after it still land).
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { z } from 'zod'
import { command, queryJsonArrayBytes, queryRows } from '../lib/clickhouse/query'
import { insertRows } from '../lib/loom/insert'
import { useFreshEngine } from './helpers/engine'

useFreshEngine('read-only-reads')

const count = async () =>
  (await queryRows('SELECT count() AS n FROM default.ro_probe', {}, z.object({ n: z.coerce.number() })))[0].n

test('a write sent down a read path is refused, and writes after the read still land', async () => {
  await command('CREATE TABLE IF NOT EXISTS default.ro_probe (a UInt32) ENGINE = MergeTree ORDER BY a')
  await insertRows('default.ro_probe', [{ a: 1 }])
  assert.equal(await count(), 1)

  // A read path handed a write (a bug, or a statement built from the wrong template).
  await assert.rejects(queryRows('INSERT INTO default.ro_probe SELECT 2', {}, z.object({})), (err: Error) =>
    /readonly|read-only|READONLY/i.test(`${err.message} ${String((err as { cause?: unknown }).cause)}`),
  )
  await assert.rejects(queryJsonArrayBytes('INSERT INTO default.ro_probe SELECT 3', {}))
  assert.equal(await count(), 1)

  // The setting belonged to those statements only: the console's writes still work.
  await insertRows('default.ro_probe', [{ a: 4 }])
  await command('ALTER TABLE default.ro_probe DELETE WHERE a = 1 SETTINGS mutations_sync = 1')
  const rows = await queryRows('SELECT a FROM default.ro_probe ORDER BY a', {}, z.object({ a: z.number() }))
  assert.deepEqual(
    rows.map((r) => r.a),
    [4],
  )

  // A read reports its own setting as read-only.
  const [setting] = await queryRows("SELECT getSetting('readonly') AS r", {}, z.object({ r: z.coerce.number() }))
  assert.equal(setting.r, 2)
  const bytes = await queryJsonArrayBytes("SELECT toUInt8(getSetting('readonly')) AS r", {})
  assert.deepEqual(JSON.parse(bytes.toString()), [{ r: 2 }])
})
