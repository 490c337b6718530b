/**
 * The triage rules, each written once (lib/triage/expr.ts) over one run's merged columns: the SQL
 * conditions (lib/triage/sql.ts, for flag filters and the derivation) and the per-run decisions
 * (lib/triage/decide.ts) are compiled from these. near_miss is not here: it compares a run with
 * others (nearMissSql).
 *
 * `resumed` repeats what lib/resume/detect.ts calls a process resume, per checkpoint block
 * (identity): attempt > 1, a write by another process than the block's previous agent write, or an
 * agent write after a gap longer than max(8 × the block's median agent interval, 60 s).
 */
import { GAP_FACTOR, MIN_GAP_MS } from '../resume/rows'
import {
  add,
  and,
  col,
  diffs,
  eq,
  exists,
  existsAt,
  existsPairs,
  field,
  filter,
  firstIndex,
  flatMap,
  ge,
  greatest,
  gt,
  item,
  let_,
  map,
  median,
  mul,
  ne,
  not,
  oneOf,
  or,
  splitBy,
  sub,
  type E,
  type W,
} from './expr'
import { CRASH_LOOP_ATTEMPTS, NEAR_LIMIT_RATIO, STALL_FACTOR, STALL_MIN_MS, type RunFlag } from './flags'

export type RuleFlag = Exclude<RunFlag, 'near_miss'>

/** The checkpoint writes of each block (identity), in version order. */
const blocks = splitBy(col('writes'), 'identity')

const agentWrites = (block: E<W[]>) => filter(block, (w) => not(field(w, 'operator')))

/** Intervals between consecutive agent writes (of one block), clamped at 0. */
const intervals = (agents: E<W[]>) => map(diffs(map(agents, (w) => field(w, 'at'))), (d) => greatest(d, 0))

/** A process resume in one block: consecutive agent writes by different processes, or an agent write after a long gap. */
const blockResumed = (block: E<W[]>) =>
  let_(agentWrites(block), (agents) =>
    or(
      existsPairs(agents, (a, b) => ne(field(a, 'trace'), field(b, 'trace'))),
      let_(
        firstIndex(block, (w) => not(field(w, 'operator'))),
        (first) =>
          let_(greatest(mul(GAP_FACTOR, median(intervals(agents))), MIN_GAP_MS), (threshold) =>
            // An agent write after the block's first one, longer after the write before it (any) than the threshold.
            existsAt(block, (w, i) =>
              and(
                not(field(w, 'operator')),
                gt(first, 0),
                gt(i, first),
                gt(sub(field(w, 'at'), field(item(block, sub(i, 1)), 'at')), threshold),
              ),
            ),
          ),
      ),
    ),
  )

/** The run's current checkpoint names a blob (whether the blob is there is decided when read: blobs expire). */
export const BLOB_NAMED = and(not(col('checkpointDeleted')), ne(col('blobKey'), ''))

/**
 * When a running run counts as stalled (ms since the epoch): its last activity (last write, or its
 * start) plus max(STALL_MIN_MS, STALL_FACTOR × its median agent checkpoint interval). Stalled at
 * `now` means running and now past this moment; the derivation stores it so a read only compares.
 */
export const STALL_AT = add(
  greatest(col('lastWriteMs'), col('startedMs')),
  greatest(STALL_MIN_MS, mul(STALL_FACTOR, median(flatMap(blocks, (block) => intervals(agentWrites(block)))))),
)

export const RULES: Record<RuleFlag, E<boolean>> = {
  resumed: or(gt(col('attempt'), 1), exists(blocks, blockResumed)),
  near_limit: and(
    not(col('checkpointDeleted')),
    gt(col('charLimit'), 0),
    ge(col('chars'), mul(NEAR_LIMIT_RATIO, col('charLimit'))),
  ),
  tie: gt(col('rows'), col('keys')),
  missing_blob: and(BLOB_NAMED, col('blobMissing')),
  crash_loop: and(ge(col('attempt'), CRASH_LOOP_ATTEMPTS), not(oneOf(col('status'), ['succeeded', '']))),
  stalled: and(eq(col('status'), 'running'), gt(col('now'), STALL_AT)),
}
