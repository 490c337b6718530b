/**
 * Writes the browser tests' long-resume runs: each a chain of processes that begin, checkpoint a few
 * items and die, the next one resuming an hour later from where the last left off.
 */
import { CRASH_LOOP_RUN, LONG_RESUME_RUN, NEAR_MISS_BEGUN_RUN, NEAR_MISS_NOW_RUN } from '../e2e/resume-fixtures'
import { runBegin, runComplete } from '../lib/loom/runs'
import { wmSet } from '../lib/loom/working-memory'

export async function seedLongResumeRuns(t0: Date) {
  for (const run of [LONG_RESUME_RUN, CRASH_LOOP_RUN]) {
    const at = (ms: number) => () => new Date(t0.getTime() + ms)
    const done: string[] = []
    let t = 0
    for (let p = 0; p < run.processes; p++) {
      t = p * 20 * 60_000
      await runBegin({ ...run, goal: `Index a flaky source (${run.processes} processes)` }, at(t))
      const actor = { actor: run.agent, sourceTrace: `host-${String.fromCharCode(97 + p)}/pid-${1000 + p}` }
      for (let k = 0; k < 3; k++) {
        t += 10_000
        done.push(`item-${String(done.length + 1).padStart(3, '0')}`)
        await wmSet({ ...run, blockKey: 'checkpoint' }, done.join(' '), { ...actor, now: at(t) })
      }
    }
    await runComplete({ ...run, status: 'failed', outcome: `gave up after ${run.processes} attempts` }, at(t + 5_000))
  }
}

/** The near-miss runs caught in the act: the first session's checkpoints, then a retry under another session. */
export async function seedNearMissNowRuns(t0: Date) {
  for (const run of [NEAR_MISS_NOW_RUN, NEAR_MISS_BEGUN_RUN]) {
    const at = (ms: number) => () => new Date(t0.getTime() + ms)
    const { firstSessionId, firstItems, ...ref } = run
    const first = { ...ref, sessionId: firstSessionId }
    const items = (n: number) => Array.from({ length: n }, (_, i) => `item-${String(i + 1).padStart(3, '0')}`).join(' ')
    await runBegin({ ...first, goal: 'Write the weekly digest' }, at(0))
    for (let k = 1; k <= firstItems; k++) {
      await wmSet({ ...first, blockKey: 'checkpoint' }, items(k), {
        actor: run.agent,
        sourceTrace: 'host-p/pid-1',
        now: at(k * 10_000),
      })
    }
    // The retry, an hour later, as another session: it cannot see the first session's checkpoint.
    await runBegin({ ...ref, goal: 'Write the weekly digest' }, at(3600_000))
    if (run === NEAR_MISS_NOW_RUN) {
      await wmSet({ ...ref, blockKey: 'checkpoint' }, items(1), {
        actor: run.agent,
        sourceTrace: 'host-q/pid-2',
        now: at(3600_000 + 10_000),
      })
    }
  }
}
