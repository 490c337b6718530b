/** Runs the browser tests add to the demo for the resume flow's readability (see scripts/e2e-long-resume.ts). */

/** 10 processes, each resumed after a crash: a 10-node diagram, drawn. */
export const LONG_RESUME_RUN = {
  org: 'e2e',
  namespace: 'resume',
  agent: 'flaky-indexer',
  userId: '',
  sessionId: '',
  runId: 'run-ten-resumes',
  processes: 10,
} as const

/** 16 processes: past a dozen nodes, shown as a list of the same steps. */
export const CRASH_LOOP_RUN = {
  ...LONG_RESUME_RUN,
  agent: 'crash-looper',
  runId: 'run-crash-loop',
  processes: 16,
} as const

/**
 * A near miss caught while it happens: session a1 wrote v1–v6 and died; the retry began as session a2
 * and has written one checkpoint of its own, from scratch (v1). The run is still going.
 */
export const NEAR_MISS_NOW_RUN = {
  org: 'e2e',
  namespace: 'resume',
  agent: 'digest-writer',
  userId: 'u-9',
  sessionId: 'a2',
  firstSessionId: 'a1',
  runId: 'run-near-miss-now',
  firstItems: 6,
} as const

/** The same moment one step earlier: the retry as session b2 has begun and written nothing yet. */
export const NEAR_MISS_BEGUN_RUN = {
  ...NEAR_MISS_NOW_RUN,
  agent: 'digest-writer-2',
  sessionId: 'b2',
  firstSessionId: 'b1',
  runId: 'run-near-miss-begun',
} as const
