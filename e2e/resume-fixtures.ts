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
export const CRASH_LOOP_RUN = { ...LONG_RESUME_RUN, agent: 'crash-looper', runId: 'run-crash-loop', processes: 16 } as const
