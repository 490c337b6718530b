/**
 * The runs the batch tests restore, clear and undo: each begun at T0, its checkpoint written by its
 * agent at the times given, and failed at T3.
 */
import * as wm from '../../lib/loom/working-memory'
import { runBegin, runComplete } from '../../lib/loom/runs'

/** Whole hours before now, as ISO text. Recent on purpose: the history table forgets rows after its retention period. */
export const hoursAgo = (h: number) =>
  new Date(Math.floor(Date.now() / 3_600_000) * 3_600_000 - h * 3_600_000).toISOString()
export const T0 = hoursAgo(10)
export const T1 = hoursAgo(9)
export const T2 = hoursAgo(8)
export const T3 = hoursAgo(7)
/** Restoring "as of" this time puts back what each block held between T1 and T2. */
export const AS_OF = hoursAgo(8.5)
export const at = (iso: string) => () => new Date(iso)

/** One checkpoint version: its content (null: the agent clears the block) and when it is written. */
export type Version = [content: string | null, iso: string]

/** The checkpoint refs, agent write contexts and run seeding of one org, namespace and agent. */
export function checkpointRuns(org: string, namespace: string, agent: string) {
  const ref = (runId: string, asAgent = agent) => ({
    org,
    namespace,
    agent: asAgent,
    runId,
    userId: '',
    sessionId: '',
    blockKey: 'checkpoint',
  })
  const agentAt = (iso: string) => ({ actor: agent, sourceTrace: 'host-a/pid-1', now: at(iso) })
  /** Begins the run at T0, writes its checkpoint versions in order and fails the run at T3. */
  async function seed(runId: string, versions: Version[] = []): Promise<void> {
    await runBegin({ org, namespace, agent, userId: '', sessionId: '', runId, goal: `goal of ${runId}` }, at(T0))
    for (const [content, iso] of versions) {
      if (content === null) await wm.wmDelete(ref(runId), agentAt(iso))
      else await wm.wmSet(ref(runId), content, agentAt(iso))
    }
    await runComplete({ org, namespace, agent, runId, status: 'failed' }, at(T3))
  }
  return { ref, agentAt, seed }
}
