/**
 * The two compilers of the triage expressions agree on the real engine: each rule's SQL condition
 * (and the stall moment, and a few probes of the language's parts) evaluated by ClickHouse over
 * many generated runs gives what decideFlags and the evaluator give for the same columns. The runs
 * are drawn to reach the edges: no writes, operator-only blocks, writes at the same moment or out of
 * time order, a deleted checkpoint, no run row, a blob that is there or not, ties in the row count.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { z } from 'zod'
import { selectRows } from '../lib/clickhouse/query'
import { join, param, sql, trusted } from '../lib/clickhouse/sql'
import { Rng } from '../lib/demo/prng'
import { toChTime } from '../lib/tables/time'
import { decideFlags, type CheckpointWrite, type RunTriage } from '../lib/triage/decide'
import { col, diffs, existsPairs, field, firstIndex, gt, item, map, median, ne, sub, type E } from '../lib/triage/expr'
import { toEvaluator } from '../lib/triage/expr-eval'
import { toSql } from '../lib/triage/expr-sql'
import { RULES, STALL_AT, type RuleFlag } from '../lib/triage/rules'
import { RUN_FLAGS } from '../lib/triage/flags'
import { useFreshEngine } from './helpers/engine'

useFreshEngine('triage-rules-parity')

const MIN = 60_000
const BASE = Date.UTC(2026, 0, 1, 12)
const RULE_FLAGS = RUN_FLAGS.filter((f): f is RuleFlag => f !== 'near_miss')

/** A run drawn to reach the edges of the rules. */
function randomRun(rng: Rng): RunTriage {
  const pick = <T>(xs: readonly T[]): T => xs[rng.int(0, xs.length - 1)]
  const writes: CheckpointWrite[] = []
  const identities = [11, 22, 33].filter(() => rng.next() < 0.6)
  for (const identity of identities) {
    const operatorOnly = rng.next() < 0.15
    let at = BASE - rng.int(0, 300) * MIN
    for (let v = 0; v < rng.int(1, 7); v++) {
      // Steps: the same moment, a few seconds, the usual minute, around the 60 s floor, long gaps, backwards.
      at += pick([0, 0, 1000, MIN, MIN, MIN, 61_000, 5 * MIN, 9 * MIN, 30 * MIN, 120 * MIN, -10_000])
      writes.push({
        identity: String(identity),
        atMs: at,
        operator: operatorOnly || rng.next() < 0.25,
        trace: String(rng.next() < 0.85 ? 7 : 8),
      })
    }
  }
  const keys = rng.int(0, 4)
  const blobKey = pick(['', '', 'present', 'gone'])
  return {
    status: pick(['', 'running', 'running', 'succeeded', 'failed']),
    attempt: pick([0, 1, 1, 2, 3, 4]),
    startedMs: BASE - rng.int(0, 400) * MIN,
    writes,
    checkpoint: {
      chars: rng.int(0, 4200),
      charLimit: pick([0, 1000, 4096]),
      isDeleted: rng.next() < 0.2,
      blobKey,
    },
    rows: keys + (rng.next() < 0.2 ? 1 : 0),
    keys,
    lastWriteMs: writes.length ? Math.max(...writes.map((w) => w.atMs)) : 0,
    blobMissing: blobKey !== 'present',
  }
}

const quote = (s: string) => `'${s}'`

/** One run's merged columns, as the flags table's merge gives them (writes kept in the given order). */
function runLiteral(id: number, t: RunTriage): string {
  const cw = t.writes.map((w) => `(${w.identity}, ${w.atMs}, 0, ${w.operator ? 1 : 0}, ${w.trace})`)
  const c = t.checkpoint
  return `(${id}, ${quote(t.status)}, ${t.attempt}, ${t.startedMs}, ${c.chars}, ${c.charLimit}, ${c.isDeleted ? 1 : 0}, ${quote(c.blobKey)}, ${t.rows}, ${t.keys}, ${t.lastWriteMs}, [${cw.join(', ')}])`
}

const RUN_TYPE =
  'Array(Tuple(UInt32, String, UInt32, Int64, UInt32, UInt32, UInt8, String, UInt64, UInt64, Int64, Array(Tuple(UInt64, Int64, UInt64, UInt8, UInt64))))'

/** Probes of the language's parts, beside the rules. */
const PROBES: Record<string, E<number> | E<boolean>> = {
  firstOperator: firstIndex(col('writes'), (w) => field(w, 'operator')),
  // 0, negative (from the end) and out of range positions.
  itemAt: field(item(col('writes'), sub(col('attempt'), 2)), 'at'),
  itemTrace: ne(field(item(col('writes'), sub(col('keys'), 1)), 'trace'), field(item(col('writes'), 1), 'trace')),
  backwards: existsPairs(col('writes'), (a, b) => gt(field(a, 'at'), field(b, 'at'))),
  medianStep: median(diffs(map(col('writes'), (w) => field(w, 'at')))),
}

test('each rule, the stall moment and the probes give the same answers in SQL and in TypeScript', async () => {
  const rng = new Rng(20_261_207)
  const runs = Array.from({ length: 600 }, () => randomRun(rng))
  const columns = [
    ...RULE_FLAGS.map((f) => [`f_${f}`, RULES[f]] as const),
    ['stall_at', STALL_AT] as const,
    ...Object.entries(PROBES).map(([name, e]) => [`p_${name}`, e] as const),
  ]
  const moments = [0, 20 * MIN, 3 * 60 * MIN, 2 * 86_400_000].map((d) => new Date(BASE + d))
  const carried = new Set<string>()
  for (const now of moments) {
    const nowSql = param('now', "DateTime64(3, 'UTC')", toChTime(now))
    const selected = join(
      columns.map(([name, e]) => sql`${toSql(e)(nowSql)} AS ${trusted(name)}`),
      ', ',
    )
    const statement = sql`WITH blobs_present AS (SELECT 'o' AS org, 'n' AS namespace, 'a' AS agent, 'present' AS blob_key)
      SELECT id, ${selected} FROM (
        SELECT r.1 AS id, 'o' AS org, 'n' AS namespace, 'a' AS agent,
          (r.2, r.3, '', '', fromUnixTimestamp64Milli(r.4, 'UTC')) AS rs,
          (r.5, r.6, r.7, r.8) AS cp, r.9 AS n_rows, r.10 AS n_keys,
          fromUnixTimestamp64Milli(r.11, 'UTC') AS lw,
          arrayMap(w -> (w.1, fromUnixTimestamp64Milli(w.2, 'UTC'), w.3, w.4, w.5), r.12) AS cw
        FROM (SELECT arrayJoin(CAST([${trusted(runs.map((t, i) => runLiteral(i, t)).join(', '))}] AS ${trusted(RUN_TYPE)})) AS r))
      ORDER BY id`
    const rows = await selectRows(statement, z.record(z.string(), z.coerce.number()))
    assert.equal(rows.length, runs.length)
    const probes = Object.entries(PROBES).map(([name, e]) => [name, toEvaluator(e as E<unknown>)] as const)
    const stallAt = toEvaluator(STALL_AT)
    for (const [i, t] of runs.entries()) {
      const row = rows[i]
      const what = `run ${i} at ${now.toISOString()}: ${JSON.stringify(t)}`
      const decided = decideFlags(t, now.getTime(), RUN_FLAGS)
      assert.deepEqual(
        decided,
        RULE_FLAGS.filter((f) => row[`f_${f}`] === 1),
        what,
      )
      for (const f of decided) carried.add(f)
      assert.equal(stallAt(t, now.getTime()), row.stall_at, `stall_at, ${what}`)
      for (const [name, evaluate] of probes)
        assert.equal(Number(evaluate(t, now.getTime())), row[`p_${name}`], `${name}, ${what}`)
    }
  }
  // Every rule holds for some run and not for others, so each comparison meant something.
  assert.deepEqual([...carried].sort(), [...RULE_FLAGS].sort())
})
