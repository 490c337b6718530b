// One line diff of two checkpoints, run by the server's diff pool (lib/server/diff-pool.ts) on a worker
// thread: the options, budget included, come from the caller. Plain JavaScript, loaded by path at
// run time, so the same file serves the built server, the standalone copy and the tests.
import { diffLines } from 'diff'

/** @param {{ before: string, after: string, options: import('diff').DiffLinesOptionsNonabortable }} task */
export default function lineDiff({ before, after, options }) {
  // Undefined (past the budget) becomes null: the answer crosses a thread boundary.
  return diffLines(before, after, options) ?? null
}
