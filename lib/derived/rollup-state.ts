/**
 * What one run contributes to the runs-page analytics, as SQL over its state tuple: the rollup keeps
 * one state per run (`state`) and run counts by kind (`sums`); a batch that changes a run's state adds
 * the difference of its two contributions to `sums` (-1 for what it counted as, +1 for what it counts as now).
 *
 * What a run contributes mirrors the direct queries of lib/queries/analytics.ts: a run row's latest
 * version, or, for a run with working memory and no run row, status "unknown" from its first write;
 * the newest checkpoint by (updated_at, version).
 */

/** Kinds of `sums` rows. */
export const ROLLUP_KIND = { started: 1, resumed: 2, size: 3 } as const
/** Levels of `sums` rows: which of org, namespace and agent they keep. */
export const ROLLUP_LEVEL = { all: 0, org: 1, namespace: 2, agent: 3 } as const
/** `ck_bucket` of a run that never wrote a checkpoint. */
export const NO_CHECKPOINT = -2

export const TIME = "DateTime64(3, 'UTC')"
export const NO_TIME = "toDateTime64('2299-12-31 23:59:59.999', 3, 'UTC')"
export const EPOCH = "toDateTime64(0, 3, 'UTC')"

export const STATE_TYPE = `Tuple(has_row UInt8, version UInt64, status String, started_at ${TIME}, attempt UInt32,
    last_begin_at ${TIME}, first_wm_at ${TIME}, ck_at ${TIME}, ck_version UInt64, ck_bucket Int8)`
/** The state type as a string literal, for CAST. */
const STATE_TYPE_TEXT = `'${STATE_TYPE.replace(/\s+/g, ' ').replaceAll("'", "\\'")}'`
/** The state tuple from its ten elements. */
export const stateOf = (parts: string[]) => `CAST((${parts.join(', ')}), ${STATE_TYPE_TEXT})`
export const EMPTY_STATE = stateOf(['0', '0', "''", EPOCH, '0', EPOCH, NO_TIME, EPOCH, '0', String(NO_CHECKPOINT)])

/**
 * Size bucket of a checkpoint row: 0..9 by 10 % of char_limit, 10 over the limit, -1 a tombstone
 * (the buckets of the analytics' size chart).
 */
export const checkpointBucketSql = (chars: string) =>
  `toInt8(multiIf(is_deleted = 1, -1, char_limit = 0 OR ${chars} > char_limit, 10, least(intDiv(${chars} * 10, char_limit), 9)))`

/** What a state counts as in `sums`: (kind, at, status, bucket, runs, extra attempts). */
export function contributions(s: string): string {
  const el = (name: string) => `tupleElement(${s}, '${name}')`
  const hasRow = `${el('has_row')} = 1`
  const status = `if(${hasRow}, ${el('status')}, 'unknown')`
  const started = `if(${hasRow}, ${el('started_at')}, ${el('first_wm_at')})`
  const row = (kind: number, at: string, bucket: string, extra: string) =>
    `(toUInt8(${kind}), toDateTime(${at}, 'UTC'), ${status}, toInt8(${bucket}), toInt64(1), toInt64(${extra}))`
  return `if(NOT ${hasRow} AND ${el('first_wm_at')} = ${NO_TIME}, [], arrayConcat(
      [${row(ROLLUP_KIND.started, `toStartOfHour(${started})`, '0', '0')}],
      if(${hasRow} AND ${el('attempt')} > 1, [${row(ROLLUP_KIND.resumed, `toStartOfDay(${el('last_begin_at')})`, '0', `${el('attempt')} - 1`)}], []),
      if(${el('ck_bucket')} != ${NO_CHECKPOINT}, [${row(ROLLUP_KIND.size, '0', el('ck_bucket'), '0')}], [])))`
}
