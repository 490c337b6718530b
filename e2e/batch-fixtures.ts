/** Finished runs the batch spec clears (written by scripts/e2e-batch-runs.ts; no other spec reads them). */
export const BATCH_RUNS = {
  org: 'e2e',
  namespace: 'batch',
  agent: 'batch-agent',
  runIds: ['run-batch-1', 'run-batch-2', 'run-batch-3'],
} as const
