/**
 * Run flags decided from one run's merged triage columns (the run index's flags table, read by key
 * in lib/run-set/run-flags.ts), by the rules of lib/triage/rules.ts compiled to TypeScript: the
 * same definitions as the SQL conditions a flag filter over many runs uses.
 * tests/run-flags-parity.test.ts holds the two forms to the same answers.
 * near_miss is not decided here: it compares a run with others.
 */
import { toEvaluator } from './expr-eval'
import { RUN_FLAGS, type RunFlag } from './flags'
import { RULES, type RuleFlag } from './rules'

export type { CheckpointWrite, RunTriage } from './expr'
import type { RunTriage } from './expr'

const DECIDE = Object.fromEntries(Object.entries(RULES).map(([f, rule]) => [f, toEvaluator(rule)])) as Record<
  RuleFlag,
  (t: RunTriage, nowMs: number) => boolean
>

/** The flags among `wanted` (near_miss aside) that one run carries at `nowMs`, in RUN_FLAGS order. */
export function decideFlags(t: RunTriage, nowMs: number, wanted: readonly RunFlag[]): RunFlag[] {
  return RUN_FLAGS.filter((f): f is RuleFlag => f !== 'near_miss' && wanted.includes(f) && DECIDE[f](t, nowMs))
}
