import assert from 'node:assert/strict'
import { test } from 'node:test'
import { param } from '../clickhouse/sql'
import { median as resumeMedian } from '../resume/rows'
import { decideFlags, type CheckpointWrite, type RunTriage } from './decide'
import * as ex from './expr'
import type { E } from './expr'
import { toEvaluator } from './expr-eval'
import { toSql, toSqlText } from './expr-sql'
import { RULES } from './rules'
import { CONDITIONS, STALL_AT_MS } from './sql'

const NOW = param('now', "DateTime64(3, 'UTC')", '2026-01-01 00:00:00.000')

/** A run with nothing: no run row, no writes, no checkpoint. */
const EMPTY: RunTriage = {
  status: '',
  attempt: 0,
  startedMs: 0,
  writes: [],
  checkpoint: { chars: 0, charLimit: 0, isDeleted: false, blobKey: '' },
  rows: 0,
  keys: 0,
  lastWriteMs: 0,
  blobMissing: false,
}
const MIN = 60_000
const w = (identity: string, atMs: number, operator = false, trace = 'p1'): CheckpointWrite => ({
  identity,
  atMs,
  operator,
  trace,
})
const evaluate = <T>(e: E<T>, t: Partial<RunTriage> = {}, nowMs = 0) => toEvaluator(e)({ ...EMPTY, ...t }, nowMs)

test('the rules compile to the SQL the hand-written conditions had (same functions, same lambdas)', () => {
  // A rule change updates this on purpose: it is the text the flag filter and the derivation plan.
  const expected: Record<keyof typeof RULES, string> = {
    resumed:
      "(rs.2 > 1 OR arrayExists(g -> (arrayExists((a, b) -> a.5 != b.5, arrayPopBack(arrayFilter(x -> x.4 = 0, g)), arrayPopFront(arrayFilter(x -> x.4 = 0, g))) OR arrayExists((x, i) -> x.4 = 0 AND arrayFirstIndex(x -> x.4 = 0, g) > 0 AND i > arrayFirstIndex(x -> x.4 = 0, g) AND toUnixTimestamp64Milli(x.2) - toUnixTimestamp64Milli(g[i - 1].2) > greatest(8 * if(empty(arrayMap(d -> greatest(d, 0), arrayPopFront(arrayDifference(arrayMap(x -> toUnixTimestamp64Milli(x.2), arrayFilter(x -> x.4 = 0, g)))))), 0, arrayReduce('quantileExactInclusive(0.5)', arrayMap(d -> greatest(d, 0), arrayPopFront(arrayDifference(arrayMap(x -> toUnixTimestamp64Milli(x.2), arrayFilter(x -> x.4 = 0, g))))))), 60000), g, arrayEnumerate(g))), arraySplit((x, c) -> c, cw, arrayMap((x, i) -> i = 1 OR x.1 != cw[i - 1].1, cw, arrayEnumerate(cw)))))",
    near_limit: '(cp.3 = 0 AND cp.2 > 0 AND cp.1 >= 0.9 * cp.2)',
    tie: '(n_rows > n_keys)',
    missing_blob:
      "(cp.3 = 0 AND cp.4 != '' AND (org, namespace, agent, cp.4) NOT IN (SELECT org, namespace, agent, blob_key FROM blobs_present))",
    crash_loop: "(rs.2 >= 3 AND rs.1 NOT IN ('succeeded', ''))",
    stalled:
      "(rs.1 = 'running' AND toUnixTimestamp64Milli({now:DateTime64(3, 'UTC')}) > greatest(toUnixTimestamp64Milli(lw), toUnixTimestamp64Milli(rs.5)) + greatest(900000, 10 * if(empty(arrayFlatten(arrayMap(g -> arrayMap(d -> greatest(d, 0), arrayPopFront(arrayDifference(arrayMap(x -> toUnixTimestamp64Milli(x.2), arrayFilter(x -> x.4 = 0, g))))), arraySplit((x, c) -> c, cw, arrayMap((x, i) -> i = 1 OR x.1 != cw[i - 1].1, cw, arrayEnumerate(cw)))))), 0, arrayReduce('quantileExactInclusive(0.5)', arrayFlatten(arrayMap(g -> arrayMap(d -> greatest(d, 0), arrayPopFront(arrayDifference(arrayMap(x -> toUnixTimestamp64Milli(x.2), arrayFilter(x -> x.4 = 0, g))))), arraySplit((x, c) -> c, cw, arrayMap((x, i) -> i = 1 OR x.1 != cw[i - 1].1, cw, arrayEnumerate(cw)))))))))",
  }
  for (const [f, text] of Object.entries(expected))
    assert.equal(CONDITIONS[f as keyof typeof RULES].sql(NOW).sql, text, f)
  assert.equal(CONDITIONS.stalled.sql(NOW).params.now, '2026-01-01 00:00:00.000')
  assert.ok(expected.stalled.includes(STALL_AT_MS.slice(1, -1)))
})

test('the columns each rule needs come from the columns it reads', () => {
  const needs = Object.fromEntries(Object.entries(CONDITIONS).map(([f, c]) => [f, [...c.needs].sort()]))
  assert.deepEqual(needs, {
    resumed: ['cw', 'rs'],
    near_limit: ['cp'],
    tie: ['counts'],
    missing_blob: ['cp'],
    crash_loop: ['rs'],
    stalled: ['cw', 'lw', 'rs'],
  })
  assert.deepEqual([...ex.needsOf(ex.gt(ex.col('now'), 1))], [])
})

test('SQL: parentheses follow precedence', () => {
  const [a, b, c] = [ex.col('chars'), ex.col('charLimit'), ex.col('attempt')]
  assert.equal(toSqlText(ex.sub(a, ex.sub(b, c))), 'cp.1 - (cp.2 - rs.2)')
  assert.equal(toSqlText(ex.sub(ex.sub(a, b), c)), 'cp.1 - cp.2 - rs.2')
  assert.equal(toSqlText(ex.mul(ex.add(a, b), c)), '(cp.1 + cp.2) * rs.2')
  assert.equal(toSqlText(ex.add(a, ex.mul(b, c))), 'cp.1 + cp.2 * rs.2')
  assert.equal(toSqlText(ex.and(ex.or(ex.gt(a, 1), ex.gt(b, 1)), ex.gt(c, 1))), '(cp.1 > 1 OR cp.2 > 1) AND rs.2 > 1')
  assert.equal(toSqlText(ex.or(ex.and(ex.gt(a, 1), ex.gt(b, 1)), ex.gt(c, 1))), 'cp.1 > 1 AND cp.2 > 1 OR rs.2 > 1')
  // Nested and / or of the same kind are one list.
  assert.equal(toSqlText(ex.and(ex.and(ex.gt(a, 1), ex.gt(b, 1)), ex.gt(c, 1))), 'cp.1 > 1 AND cp.2 > 1 AND rs.2 > 1')
  assert.equal(toSqlText(ex.gt(a, ex.add(b, c))), 'cp.1 > cp.2 + rs.2')
})

test('SQL: negation is written the lean way where there is one', () => {
  assert.equal(toSqlText(ex.not(ex.col('checkpointDeleted'))), 'cp.3 = 0')
  assert.equal(toSqlText(ex.not(ex.gt(ex.col('chars'), 1))), 'cp.1 <= 1')
  assert.equal(toSqlText(ex.not(ex.ne(ex.col('status'), 'x'))), "rs.1 = 'x'")
  assert.equal(toSqlText(ex.not(ex.oneOf(ex.col('status'), ['a', 'b']))), "rs.1 NOT IN ('a', 'b')")
  assert.equal(toSqlText(ex.oneOf(ex.col('attempt'), [1, 2])), 'rs.2 IN (1, 2)')
  assert.equal(
    toSqlText(ex.not(ex.col('blobMissing'))),
    'NOT ((org, namespace, agent, cp.4) NOT IN (SELECT org, namespace, agent, blob_key FROM blobs_present))',
  )
  assert.equal(
    toSqlText(ex.not(ex.or(ex.gt(ex.col('chars'), 1), ex.gt(ex.col('keys'), 1)))),
    'NOT (cp.1 > 1 OR n_keys > 1)',
  )
  assert.equal(toSqlText(ex.eq(ex.col('status'), "it's \\ odd")), "rs.1 = 'it\\'s \\\\ odd'")
  assert.throws(() => toSqlText(ex.gt(ex.col('chars'), Number.NaN)), /finite/)
})

test('SQL: lambdas are named by what they range over, and never hide an outer variable they read', () => {
  const writes = ex.col('writes')
  assert.equal(toSqlText(ex.exists(writes, (x) => ex.field(x, 'operator'))), 'arrayExists(x -> x.4, cw)')
  // The inner lambda reads the outer write: its own is x2.
  assert.equal(
    toSqlText(ex.exists(writes, (x) => ex.exists(writes, (y) => ex.ne(ex.field(x, 'trace'), ex.field(y, 'trace'))))),
    'arrayExists(x -> arrayExists(x2 -> x.5 != x2.5, cw), cw)',
  )
  // It does not read it: x again, as a hand-written statement would.
  assert.equal(
    toSqlText(
      ex.exists(writes, (x) =>
        ex.and(
          ex.field(x, 'operator'),
          ex.exists(writes, (y) => ex.field(y, 'operator')),
        ),
      ),
    ),
    'arrayExists(x -> x.4 AND arrayExists(x -> x.4, cw), cw)',
  )
  // A let_ value is written where it is used, and counts as read there.
  assert.equal(
    toSqlText(
      ex.exists(writes, (x) =>
        ex.let_(ex.field(x, 'at'), (at) => ex.exists(writes, (y) => ex.gt(ex.field(y, 'at'), at))),
      ),
    ),
    'arrayExists(x -> arrayExists(x2 -> toUnixTimestamp64Milli(x2.2) > toUnixTimestamp64Milli(x.2), cw), cw)',
  )
  const blocks = ex.splitBy(writes, 'identity')
  assert.equal(
    toSqlText(ex.map(blocks, (g) => ex.median(ex.diffs(ex.map(g, (x) => ex.field(x, 'at')))))),
    "arrayMap(g -> if(empty(arrayPopFront(arrayDifference(arrayMap(x -> toUnixTimestamp64Milli(x.2), g)))), 0, arrayReduce('quantileExactInclusive(0.5)', arrayPopFront(arrayDifference(arrayMap(x -> toUnixTimestamp64Milli(x.2), g))))), arraySplit((x, c) -> c, cw, arrayMap((x, i) -> i = 1 OR x.1 != cw[i - 1].1, cw, arrayEnumerate(cw))))",
  )
  assert.equal(
    toSqlText(
      ex.existsAt(writes, (x, i) =>
        ex.and(ex.gt(i, 1), ex.gt(ex.field(x, 'at'), ex.field(ex.item(writes, ex.sub(i, 1)), 'at'))),
      ),
    ),
    'arrayExists((x, i) -> i > 1 AND toUnixTimestamp64Milli(x.2) > toUnixTimestamp64Milli(cw[i - 1].2), cw, arrayEnumerate(cw))',
  )
  assert.equal(
    toSqlText(ex.existsPairs(writes, (a, b) => ex.lt(ex.field(a, 'at'), ex.field(b, 'at')))),
    'arrayExists((a, b) -> toUnixTimestamp64Milli(a.2) < toUnixTimestamp64Milli(b.2), arrayPopBack(cw), arrayPopFront(cw))',
  )
  assert.equal(
    toSqlText(ex.flatMap(blocks, (g) => ex.filter(g, (x) => ex.field(x, 'operator')))),
    'arrayFlatten(arrayMap(g -> arrayFilter(x -> x.4, g), arraySplit((x, c) -> c, cw, arrayMap((x, i) -> i = 1 OR x.1 != cw[i - 1].1, cw, arrayEnumerate(cw)))))',
  )
  assert.equal(toSqlText(ex.firstIndex(writes, (x) => ex.field(x, 'operator'))), 'arrayFirstIndex(x -> x.4, cw)')
})

test('SQL: a rule over other columns (a list row), which must name every column the rule reads', () => {
  assert.equal(
    toSqlText(RULES.crash_loop, { status: 'tupleElement(latest, 4)', attempt: 'tupleElement(latest, 5)' }),
    "tupleElement(latest, 5) >= 3 AND tupleElement(latest, 4) NOT IN ('succeeded', '')",
  )
  assert.throws(() => toSqlText(RULES.crash_loop, { status: 'status' }), /attempt/)
})

test('SQL: the moment is a bound parameter, and only toSql places it', () => {
  const s = toSql(ex.gt(ex.col('now'), ex.greatest(ex.col('lastWriteMs'), 5)))(NOW)
  assert.equal(s.sql, "(toUnixTimestamp64Milli({now:DateTime64(3, 'UTC')}) > greatest(toUnixTimestamp64Milli(lw), 5))")
  assert.deepEqual(s.params, { now: '2026-01-01 00:00:00.000' })
  assert.throws(() => toSqlText(ex.gt(ex.col('now'), 1)), /toSql/)
})

test('evaluator: the median is the resume rules’ (quantileExactInclusive(0.5)), 0 for none', () => {
  const m = ex.median(ex.diffs(ex.map(ex.col('writes'), (x) => ex.field(x, 'at'))))
  for (const times of [[], [5], [0, 10], [0, 10, 13], [0, 10, 13, 100], [0, 0, 0, 7, 7], [100, 90, 130]]) {
    const diffsOf = times.slice(1).map((t, i) => t - times[i])
    assert.equal(evaluate(m, { writes: times.map((t) => w('1', t)) }), resumeMedian(diffsOf), times.join())
  }
  // Intervals 10, 3, 87, 1: the mean of the middle two.
  assert.equal(evaluate(m, { writes: [0, 10, 13, 100, 101].map((t) => w('1', t)) }), 6.5)
})

test('evaluator: positions count from 1, negative ones from the end, and out of range read empty', () => {
  const writes = [w('1', 10, false, 'a'), w('1', 20, true, 'b'), w('2', 30, false, 'c')]
  const at = (i: number) => evaluate(ex.field(ex.item(ex.col('writes'), i), 'at'), { writes })
  assert.deepEqual([1, 2, 3, 4, 0, -1, -3, -4].map(at), [10, 20, 30, 0, 0, 30, 10, 0])
  assert.equal(evaluate(ex.field(ex.item(ex.col('writes'), 9), 'trace'), { writes }), '')
  assert.equal(evaluate(ex.field(ex.item(ex.col('writes'), 9), 'operator'), { writes }), false)
  assert.equal(
    evaluate(
      ex.firstIndex(ex.col('writes'), (x) => ex.field(x, 'operator')),
      { writes },
    ),
    2,
  )
  assert.equal(
    evaluate(
      ex.firstIndex(ex.col('writes'), (x) => ex.eq(ex.field(x, 'trace'), 'z')),
      { writes },
    ),
    0,
  )
})

test('evaluator: blocks, pairs, positions, filters', () => {
  const writes = [w('1', 0), w('1', 5, true), w('2', 7), w('1', 9)]
  const blocks = ex.splitBy(ex.col('writes'), 'identity')
  assert.deepEqual(
    evaluate(
      ex.map(blocks, (g) => ex.map(g, (x) => ex.field(x, 'at'))),
      { writes },
    ),
    [[0, 5], [7], [9]],
  )
  assert.deepEqual(
    evaluate(ex.map(ex.splitBy(ex.col('writes'), 'identity'), (g) => ex.map(g, (x) => ex.field(x, 'at')))),
    [],
  )
  assert.deepEqual(
    evaluate(
      ex.flatMap(blocks, (g) => ex.filter(g, (x) => ex.not(ex.field(x, 'operator')))),
      { writes },
    ).length,
    3,
  )
  const pairs: E<boolean> = ex.existsPairs(ex.col('writes'), (a, b) => ex.gt(ex.field(a, 'at'), ex.field(b, 'at')))
  assert.equal(evaluate(pairs, { writes }), false)
  assert.equal(evaluate(pairs, { writes: [w('1', 3), w('1', 2)] }), true)
  assert.equal(evaluate(pairs, { writes: [w('1', 3)] }), false)
  const atTwo = ex.existsAt(ex.col('writes'), (x, i) => ex.and(ex.eq(i, 2), ex.field(x, 'operator')))
  assert.equal(evaluate(atTwo, { writes }), true)
  assert.equal(evaluate(atTwo, { writes: [w('1', 0, true), w('1', 1)] }), false)
  assert.deepEqual(
    evaluate(
      ex.map(ex.diffs(ex.map(ex.col('writes'), (x) => ex.field(x, 'at'))), (d) => ex.greatest(d, 0)),
      { writes: [w('1', 5), w('1', 3), w('1', 8)] },
    ),
    [0, 5],
  )
  assert.equal(evaluate(ex.oneOf(ex.col('status'), ['a', 'b']), { status: 'b' }), true)
  assert.equal(
    evaluate(ex.ge(ex.col('chars'), ex.mul(0.5, ex.col('charLimit'))), {
      checkpoint: { ...EMPTY.checkpoint, chars: 5, charLimit: 10 },
    }),
    true,
  )
})

test('evaluator: a let_ value is computed once, and and / or stop at the deciding operand', () => {
  let reads = 0
  const t = { ...EMPTY }
  Object.defineProperty(t, 'writes', {
    get: () => {
      reads++
      return [w('1', 0), w('1', 1), w('1', 2)]
    },
  })
  const e = ex.let_(ex.col('writes'), (ws) =>
    ex.exists(ws, (x) => ex.exists(ws, (y) => ex.gt(ex.field(y, 'at'), ex.field(x, 'at')))),
  )
  assert.equal(toEvaluator(e)(t, 0), true)
  assert.equal(reads, 1)
  reads = 0
  assert.equal(
    toEvaluator(
      ex.or(
        ex.gt(ex.col('attempt'), -1),
        ex.exists(ex.col('writes'), () => ex.gt(1, 0)),
      ),
    )(t, 0),
    true,
  )
  assert.equal(
    toEvaluator(
      ex.and(
        ex.gt(ex.col('attempt'), 5),
        ex.exists(ex.col('writes'), () => ex.gt(1, 0)),
      ),
    )(t, 0),
    false,
  )
  assert.equal(reads, 0)
})

test('decideFlags at the edges: no run row, no writes, operator-only blocks, writes at one moment, a deleted checkpoint', () => {
  const all = ['resumed', 'near_miss', 'near_limit', 'tie', 'missing_blob', 'crash_loop', 'stalled'] as const
  // No run row and no writes: nothing, at any moment (stalled needs a running run).
  assert.deepEqual(decideFlags(EMPTY, 10 * 86_400_000, all), [])
  // Operator-only block: no agent write, so no gap and no process change, whatever the times.
  const operatorOnly = [w('1', 0, true, 'console'), w('1', 3 * 60 * MIN, true, 'other')]
  assert.deepEqual(decideFlags({ ...EMPTY, writes: operatorOnly }, 0, all), [])
  // Running with only operator writes: the 15-minute floor from its last activity.
  const running = { ...EMPTY, status: 'running', startedMs: 0, lastWriteMs: 3 * 60 * MIN, writes: operatorOnly }
  assert.deepEqual(decideFlags(running, 3 * 60 * MIN + 15 * MIN, all), [])
  assert.deepEqual(decideFlags(running, 3 * 60 * MIN + 15 * MIN + 1, all), ['stalled'])
  // Agent writes at one moment: a median of 0, so the 60 s floor decides a gap.
  const tied = [w('1', 0), w('1', 0), w('1', 0), w('1', 60_000)]
  assert.deepEqual(decideFlags({ ...EMPTY, writes: tied }, 0, all), [])
  assert.deepEqual(decideFlags({ ...EMPTY, writes: [...tied.slice(0, 3), w('1', 60_001)] }, 0, all), ['resumed'])
  // The gap counts from the write before (an operator's), not from the agent's previous write.
  const between = [w('1', 0), w('1', MIN), w('1', 2 * MIN), w('1', 50 * MIN, true), w('1', 51 * MIN)]
  assert.deepEqual(decideFlags({ ...EMPTY, writes: between }, 0, all), [])
  // Another process in the same block; across blocks it is not a resume.
  assert.deepEqual(decideFlags({ ...EMPTY, writes: [w('1', 0, false, 'p1'), w('1', 1, false, 'p2')] }, 0, all), [
    'resumed',
  ])
  assert.deepEqual(decideFlags({ ...EMPTY, writes: [w('1', 0, false, 'p1'), w('2', 1, false, 'p2')] }, 0, all), [])
  // A deleted checkpoint is neither near its limit nor names a blob.
  const cp = { chars: 950, charLimit: 1000, isDeleted: true, blobKey: 'gone' }
  assert.deepEqual(decideFlags({ ...EMPTY, checkpoint: cp, blobMissing: true }, 0, all), [])
  assert.deepEqual(decideFlags({ ...EMPTY, checkpoint: { ...cp, isDeleted: false }, blobMissing: true }, 0, all), [
    'near_limit',
    'missing_blob',
  ])
  // Only the wanted flags are decided, in RUN_FLAGS order.
  const many = { ...EMPTY, status: 'failed', attempt: 3, rows: 2, keys: 1 }
  assert.deepEqual(decideFlags(many, 0, all), ['resumed', 'tie', 'crash_loop'])
  assert.deepEqual(decideFlags(many, 0, ['crash_loop', 'tie']), ['tie', 'crash_loop'])
})
