import type { RunFlag } from '../triage/flags'

/** A listed run: its key, and the identity and state the list shows for it. */
export type FlaggedRun = {
  org: string
  namespace: string
  agent: string
  run_id: string
  user_id: string
  session_id: string
  status: string
  attempt: number
  started_text: string
}

export const runKey = (r: { org: string; namespace: string; agent: string; run_id: string }) => JSON.stringify([r.org, r.namespace, r.agent, r.run_id])

/** The flags of each given run, keyed by runKey. */
export async function flagsOfRuns(runs: FlaggedRun[], signal?: AbortSignal): Promise<Map<string, RunFlag[]>> {
  void signal
  return new Map(runs.map((r) => [runKey(r), []]))
}
