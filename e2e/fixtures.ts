/** Data the e2e server's database holds besides the demo runs (written by scripts/e2e-prepare.ts). */
export const BIG_RUN = {
  org: 'bench',
  namespace: 'load',
  agent: 'chatty-agent',
  userId: '',
  sessionId: '',
  runId: 'run-12k-events',
  /** Turns written: more than the timeline's default cap of 10,000. */
  turns: 12_345,
} as const

/** A finished run with an id-list checkpoint that the editor spec edits, clears and restores. */
export const EDITABLE_RUN = {
  org: 'e2e',
  namespace: 'console',
  agent: 'editable-agent',
  userId: '',
  sessionId: '',
  runId: 'run-editable',
} as const

/** A finished run with a JSON checkpoint that two browser tabs edit at once (the merge spec). */
export const MERGE_RUN = {
  org: 'e2e',
  namespace: 'console',
  agent: 'merge-agent',
  userId: '',
  sessionId: '',
  runId: 'run-merge',
  /** The checkpoint the agent wrote last (v3). */
  state: { cursor: 'inv-0420', processed: 20, skipped: ['inv-0412'], options: { currency: 'EUR', dry_run: false } },
} as const

/** A run with thousands of working-memory blocks under one identity, for the virtualized block lists. */
export const MANY_BLOCKS_RUN = {
  org: 'bench',
  namespace: 'load',
  agent: 'hoarding-agent',
  userId: '',
  sessionId: '',
  runId: 'run-2500-blocks',
  blocks: 2_500,
} as const
