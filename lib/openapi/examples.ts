/** Examples in the OpenAPI document (the test checks each one against its schema). */

const block = {
  userId: '',
  sessionId: '',
  blockKey: 'checkpoint',
  version: '42',
  content: 'inv-001 inv-002 inv-003',
  isDeleted: false,
  charLimit: 4000,
  chars: 23,
  actor: 'invoice-agent',
  sourceTrace: 'worker-7/pid-4121',
  updatedAt: '2026-11-25T11:58:03.120Z',
}

/** A run under the identity it was written with (the fields every run-scoped example starts with). */
const runOwner = (runId: string) => ({
  org: 'acme',
  namespace: 'billing',
  agent: 'invoice-agent',
  runId,
  userId: '',
  sessionId: '',
})

const runSummary = {
  ...runOwner('run-2026-11-25-001'),
  goal: 'Reconcile the November invoices',
  status: 'running',
  attempt: 2,
  startedAt: '2026-11-25T11:20:00.000Z',
  completedAt: null,
  durationMs: null,
  turns: 18,
  costUsd: 0.42,
  checkpoint: {
    version: '42',
    updatedAt: '2026-11-25T11:58:03.120Z',
    chars: 23,
    charLimit: 4000,
    isDeleted: false,
    userId: '',
    sessionId: '',
  },
  flags: ['resumed'],
}

export const EXAMPLES = {
  parameters: {
    org: 'acme',
    namespace: 'billing',
    agent: 'invoice-agent',
    runId: 'run-2026-11-25-001',
    blockKey: 'checkpoint',
    status: 'running',
    from: '2026-11-01',
    limit: '50',
    field: 'org',
    prefix: 'ac',
  },
  bodies: {
    edit: { content: 'inv-001 inv-002', expectedVersion: '42', reason: 'inv-003 was not really done: redo it' },
    clear: { expectedVersion: '42', reason: 'start the batch over' },
    restore: { version: '40', expectedVersion: '42', reason: 'put back the state before the bad import' },
    login: { name: 'alice', password: 'a long password' },
    undo: { dryRun: true },
    view: {
      name: 'Crash loops in billing',
      filter: { org: 'acme', namespace: 'billing', flag: ['crash_loop'] },
      shared: true,
      alert: { webhook: 'https://hooks.example.com/loom', threshold: 3, enabled: true },
    },
    viewPatch: { name: 'Crash loops in billing (prod)' },
    mcp: { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} },
    batch: {
      filter: { org: 'acme', status: 'failed', flag: ['crash_loop'] },
      blockKey: 'checkpoint',
      action: 'restore',
      before: '2026-11-24T00:00:00Z',
      reason: 'undo the bad import of 23 November',
      dryRun: true,
    },
  },
  responses: {
    RunsPage: { runs: [runSummary], nextCursor: null },
    Batch: {
      items: [
        {
          ...runOwner('run-2026-11-25-001'),
          blockKey: 'checkpoint',
          fromVersion: '42',
          toVersion: '40',
          action: 'restore',
          status: 'failed',
          current: {
            version: '42',
            actor: 'operator:dana',
            byOperator: true,
            isDeleted: false,
            updatedAt: '2026-11-25T16:52:10.120Z',
          },
          warnings: ["replaces an operator's write", 'replaces live version 42: not a tombstone'],
        },
        {
          ...runOwner('run-2026-11-25-002'),
          blockKey: 'checkpoint',
          fromVersion: null,
          toVersion: null,
          action: 'skip',
          why: "no checkpoint block under the run's identity",
          status: 'succeeded',
          current: null,
          warnings: [],
        },
      ],
      total: 2,
      token: 'eyJ2IjoxfQ.c2lnbmF0dXJl',
    },
    Facets: {
      values: [
        { value: 'acme', runs: 1204 },
        { value: 'acorn-labs', runs: 37 },
      ],
    },
    Blocks: { blocks: [block] },
    WriteResult: {
      block: { ...block, version: '43', content: 'inv-001 inv-002', chars: 15, actor: 'operator:local' },
      confirmed: true,
      auditId: 'c0ffee00-0000-4000-8000-000000000001',
    },
    Health: {
      mode: 'remote',
      clickhouseVersion: '26.7.1.1',
      readOnly: false,
      schema: { phase: 'ready', tables: [{ name: 'loom.working_memory', present: true }] },
      setup: { runIndex: false, history: true, command: 'npm run db:init' },
      engine: null,
      derived: { lagMs: 640, lastRunAt: '2026-11-25T10:04:05.120Z', error: null },
    },
    Me: { user: null, authRequired: false, canWrite: true, readOnly: false },
  },
  errors: {
    400: { error: { code: 'invalid', message: 'limit must be at most 200', field: 'limit' } },
    404: { error: { code: 'not_found', message: 'No run acme/billing/invoice-agent/run-x' } },
    409: {
      error: { code: 'conflict', message: 'The block is at version 43, not 42: it changed since you loaded it' },
      current: { ...block, version: '43' },
    },
    503: { error: { code: 'unavailable', message: 'ClickHouse is unreachable' } },
  },
} as const
